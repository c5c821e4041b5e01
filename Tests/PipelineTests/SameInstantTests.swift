// One rule for timers due at the same instant, whatever way the input comes in: they fire in the
// order they were set, each finishing what needs no wait before the next fires (docs/events.md).
// A source's answer due at 700 ms (its timer set at 300) is delivered before a newer term's
// debounce, due at 700 ms too but set at 400, starts the next search.
import Catalog
import Pipeline
import Streams
import Testing

@Suite struct SameInstantTests {
  enum WayIn: String, CaseIterable, Sendable {
    /// An `AsyncFeed` pushed from the driving thread, as the replay driver feeds it.
    case feed
    /// An `AsyncStream`, iterated by the pipeline's own task.
    case stream
    /// `ReplayDriver`, reading the recording line by line.
    case replay
  }

  enum Answering: String, CaseIterable, Sendable {
    /// A stub sleeping its latency on the clock.
    case stub
    /// The library's own `CatalogSource(items:latency:clock:)`.
    case catalog
  }

  static let expected = [
    "search tay@300", "results tay load@700", "search taylor@700", "results taylor load@1100",
  ]

  @Test(arguments: WayIn.allCases, Answering.allCases)
  func anAnswerDueWithANewerTermsDebounceIsDeliveredFirst(wayIn: WayIn, answering: Answering) throws {
    // A later keystroke of another session keeps the input open (a replay settles what is
    // pending when its input ends).
    let keys = [Key(0, "tay"), Key(400, "taylor"), Key(5_000, "x", session: "later")]
    let source: @Sendable (ManualClock) -> any SearchSource = { clock in
      switch answering {
      case .stub: StubSource(latency: .milliseconds(400), clock: clock)
      case .catalog:
        CatalogSource(
          items: [CatalogTestItems.song(1, "Taylor Made", popularity: 1)], latency: .milliseconds(400), clock: clock)
      }
    }
    let lines = try Self.events(of: keys, wayIn: wayIn, source: source)
    let unnamed = lines.filter { !$0.hasPrefix("[") && !$0.hasPrefix("summary") }
    #expect(unnamed == Self.expected, "\(wayIn), \(answering)")
  }

  /// The events of `keys`, fed the way `wayIn` says.
  static func events(
    of keys: [Key], wayIn: WayIn, source: @escaping @Sendable (ManualClock) -> any SearchSource
  ) throws -> [String] {
    let log = EventLog()
    let records = keys.enumerated().map { index, key in
      InputRecord.keystroke(Keystroke(term: key.text, atMilliseconds: key.at, session: key.session), line: index + 1)
    }
    switch wayIn {
    case .replay:
      var remaining = records[...]
      try ReplayDriver(source: source).run(sink: log.sink) { remaining.popFirst() }
    case .feed, .stream:
      let runner = VirtualTimeRunner()
      let pipeline = SearchPipeline(source: source(runner.clock), clock: runner.clock, sink: log.sink)
      let feed = AsyncFeed<InputRecord>()
      let (stream, continuation) = AsyncStream.makeStream(of: InputRecord.self)
      let task =
        wayIn == .feed ? runner.start { await pipeline.run(feed) } : runner.start { await pipeline.run(stream) }
      for (key, record) in zip(keys, records) {
        runner.advance(to: .milliseconds(key.at))
        if wayIn == .feed { runner.onRunner { feed.yield(record) } } else { continuation.yield(record) }
        runner.runUntilIdle()
      }
      runner.advance(to: .milliseconds(10_000))
      if wayIn == .feed { runner.onRunner { feed.finish() } } else { continuation.finish() }
      _ = try runner.finish(task)
    }
    return log.lines
  }
}
