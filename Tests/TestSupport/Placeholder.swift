// Test support: servers and helpers the test targets share.
enum TestSupportPlaceholder {}
