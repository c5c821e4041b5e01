import Testing
@Suite struct StreamsTestsPlaceholder { @Test func builds() { #expect(1 + 1 == 2) } }
