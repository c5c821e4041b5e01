// Durations and rates as the command line writes them: what parses, what is refused and why, and
// that what help prints parses back to the same value.
import Pipeline
import Testing

@testable import stream_search

@Suite struct DurationTextTests {
  @Test(arguments: [
    ("300ms", Duration.milliseconds(300)),
    ("1.5s", .milliseconds(1_500)),
    ("2m", .seconds(120)),
    ("1h", .seconds(3_600)),
    ("0", .zero),
    ("0ms", .zero),
    ("0.0", .zero),
    ("007s", .seconds(7)),
    ("0.25ms", .microseconds(250)),
    ("1.000000001s", .nanoseconds(1_000_000_001)),
    ("1.0000000019s", .nanoseconds(1_000_000_001)),
    ("0.5h", .seconds(1_800)),
  ])
  func parsesNumberAndUnit(text: String, expected: Duration) throws {
    #expect(try Duration(commandLineText: text) == expected)
  }

  @Test(arguments: [
    ("300", DurationSyntaxError.missingUnit(number: "300")),
    ("1.5", .missingUnit(number: "1.5")),
    ("", .malformed),
    ("ms", .malformed),
    ("-1s", .malformed),
    ("+1s", .malformed),
    ("1.s", .malformed),
    (".5s", .malformed),
    ("1.2.3s", .malformed),
    ("1x", .malformed),
    ("1 s", .malformed),
    ("1S", .malformed),
    ("1e3ms", .malformed),
    ("\u{0661}s", .malformed),
    ("99999999999h", .tooLarge),
    ("123456789012345678901s", .tooLarge),
  ])
  func refusesTextThatIsNotADuration(text: String, expected: DurationSyntaxError) {
    #expect(throws: expected) { try Duration(commandLineText: text) }
  }

  @Test(arguments: [
    (Duration.zero, "0"),
    (.milliseconds(300), "300ms"),
    (.seconds(10), "10s"),
    (.seconds(90), "90s"),
    (.seconds(600), "10m"),
    (.seconds(3_600), "1h"),
    (.seconds(5_400), "90m"),
    (.milliseconds(1_500), "1500ms"),
    (.microseconds(250), "0.25ms"),
    (.nanoseconds(1), "0.000001ms"),
    (.milliseconds(-300), "-300ms"),
  ])
  func printsInTheLargestWholeUnit(duration: Duration, expected: String) {
    #expect(duration.commandLineText == expected)
  }

  @Test(arguments: [Duration.zero, .milliseconds(300), .seconds(90), .microseconds(250), .nanoseconds(7)])
  func printedTextParsesBackToTheSameDuration(duration: Duration) throws {
    #expect(try Duration(commandLineText: duration.commandLineText) == duration)
  }
}

@Suite struct RateLimitTests {
  @Test(arguments: [
    ("20/min", RateLimit(permits: 20, per: .seconds(60))),
    ("5/s", RateLimit(permits: 5, per: .seconds(1))),
    ("100/h", RateLimit(permits: 100, per: .seconds(3_600))),
    ("20/60s", RateLimit(permits: 20, per: .seconds(60))),
    ("3/1.5s", RateLimit(permits: 3, per: .milliseconds(1_500))),
    ("1/hour", RateLimit(permits: 1, per: .seconds(3_600))),
    ("7/m", RateLimit(permits: 7, per: .seconds(60))),
  ])
  func parsesPermitsPerWindow(text: String, expected: RateLimit) throws {
    #expect(try RateLimit(commandLineText: text) == expected)
  }

  @Test(arguments: [
    "", "20", "20/", "/min", "0/min", "-1/min", "20/0s", "20/0", "20/60", "20/fortnight", "x/s", "1/2/3",
  ])
  func refusesAnythingElse(text: String) {
    #expect(throws: RateLimit.SyntaxError.malformed) { try RateLimit(commandLineText: text) }
  }

  @Test(arguments: [
    (RateLimit(permits: 20, per: .seconds(60)), "20/min"),
    (RateLimit(permits: 5, per: .seconds(1)), "5/s"),
    (RateLimit(permits: 100, per: .seconds(3_600)), "100/h"),
    (RateLimit(permits: 20, per: .seconds(90)), "20/90s"),
  ])
  func printsTheWayItIsWritten(limit: RateLimit, expected: String) throws {
    #expect(limit.commandLineText == expected)
    #expect(try RateLimit(commandLineText: expected) == limit)
  }
}
