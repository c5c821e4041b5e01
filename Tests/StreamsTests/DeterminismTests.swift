// The same input gives the same output, event for event and instant for instant, on every run:
// 10,000 recorded elements through debounce, removeDuplicates and cancel-previous, eight times,
// side by side.
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite struct DeterminismTests {
  /// 10,000 (instant, text) pairs: bursts of typing, pauses, repeats and clears.
  static let recording: [(Int64, String)] = {
    var random = SplitMix64(seed: 2026)  // StreamsTesting: the same recording on every machine
    let words = ["tay", "taylor", "zim", "zimmer", "", "serial", "radio", "radiohead"]
    var at: Int64 = 0
    return (0..<10_000).map { _ in
      // Mostly fast keys, sometimes a pause longer than the debounce, sometimes the same instant.
      let gap = [0, 40, 90, 150, 320, 700].randomElement(using: &random) ?? 0
      at += Int64(gap)
      return (at, words.randomElement(using: &random) ?? "")
    }
  }()

  /// Replays the recording and returns what came out, each with its virtual instant.
  static func replay() throws -> [String] {
    let runner = VirtualTimeRunner()
    let clock = runner.clock
    let (input, feed) = AsyncStream.makeStream(of: String.self)
    let task = runner.start { () -> [String] in
      var seen: [String] = []
      let events =
        input
        .debounce(clock: clock) { $0.isEmpty ? .zero : .milliseconds(300) }
        .removeDuplicates()
        .switchMap { (text: String, emit: SwitchMapEmitter<String>) in
          // A lookup whose latency depends on the text, so answers and keys interleave.
          try? await clock.sleep(for: .milliseconds(Int64(50 + text.count * 37)))
          emit(text.uppercased())
        }
      for try await event in events {
        switch event {
        case .started(let text): seen.append("start \(text)@\(clock.now.milliseconds)")
        case .output(let text): seen.append("out \(text)@\(clock.now.milliseconds)")
        case .cancelled(let text, let newer): seen.append("cancel \(text) by \(newer)@\(clock.now.milliseconds)")
        }
      }
      return seen
    }
    for (at, text) in recording {
      runner.advance(to: .milliseconds(at))
      feed.yield(text)
    }
    feed.finish()
    return try runner.finish(task)
  }

  // Eight replays, each on a thread of its own (a replay drives its runner synchronously, and
  // would hold a task thread for seconds), one per core at a time so that they never crowd out
  // the rest of the suite: side by side, and beside the other tests, they preempt one another at
  // places no two runs share, which varies the real threads' timing far more than fifty replays
  // one after another on an idle core did, at a sixth of the CPU. Virtual time must make that
  // invisible.
  @Test func aRecordedInputReplaysIdenticallyEvenWhenReplaysRunAtOnce() async throws {
    let replays = try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<8 { group.addTask { try await OwnThread.running { try Self.replay() } } }
      return try await group.reduce(into: [[String]]()) { $0.append($1) }
    }
    let first = try #require(replays.first)
    #expect(replays.count == 8)
    #expect(first.count > 1_000)
    #expect(first.contains { $0.hasPrefix("cancel ") })
    for (run, again) in replays.enumerated().dropFirst() {
      #expect(again == first, "replay \(run + 1) of 8 differs")
    }
  }
}
