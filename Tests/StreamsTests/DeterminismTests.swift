// The same input gives the same output, event for event and instant for instant, on every run:
// 10,000 recorded elements through debounce, removeDuplicates and cancel-previous, 50 times.
import Streams
import TestSupport
import Testing

@Suite struct DeterminismTests {
  /// SplitMix64, so the recording is the same on every machine.
  struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// 10,000 (instant, text) pairs: bursts of typing, pauses, repeats and clears.
  static let recording: [(Int64, String)] = {
    var random = SeededRandom(state: 2026)
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
      let events = input
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

  // The replays run on a thread of their own: each drives the runner synchronously, and fifty of
  // them on a task thread held it for a minute under load (half the CPU of all in-process tests),
  // starving every other test in the process.
  @Test func aRecordedInputReplaysIdenticallyFiftyTimes() async throws {
    let first = try await OwnThread.value { try Self.replay() }
    #expect(first.count > 1_000)
    #expect(first.contains { $0.hasPrefix("cancel ") })
    for run in 2...50 {
      let again = try await OwnThread.value { try Self.replay() }
      #expect(again == first, "run \(run) differs")
      if again != first { break }
    }
  }
}
