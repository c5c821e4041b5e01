import Testing
@Suite struct CommandLineTestsPlaceholder { @Test func builds() { #expect(1 + 1 == 2) } }
