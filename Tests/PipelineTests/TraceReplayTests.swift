// The recorded typing sessions in ../shared/traces replayed with the settings their README gives
// (300 ms debounce, answers 401 ms after a load starts, an unbounded cache that never expires,
// minimum length 1) must emit exactly the events their expected files list.
import Foundation
import Pipeline
import Streams
import TestSupport
import Testing

@Suite struct TraceReplayTests {
  static let traces = ["typing-1k", "artists-800", "sessions8-4k"]

  @Test(.enabled(if: SharedFolder.traces != nil, Comment(rawValue: SharedFixtures.absentNote)), arguments: traces)
  func replayEmitsTheExpectedEvents(trace: String) throws {
    let folder = try #require(SharedFolder.traces)
    let recording = try String(contentsOf: folder.appendingPathComponent("\(trace).jsonl"), encoding: .utf8)
    let expectedFile = folder.appendingPathComponent("\(trace).expected-401ms.jsonl")
    let expected = try String(contentsOf: expectedFile, encoding: .utf8)
    let actual = try Self.replay(recording)
    let wanted = try expected.split(separator: "\n").map { try Self.canonical(json: String($0)) }
    #expect(actual.count == wanted.count)
    let missing = Self.difference(wanted, actual)
    let extra = Self.difference(actual, wanted)
    #expect(missing.isEmpty, "expected but not emitted: \(missing.prefix(5))")
    #expect(extra.isEmpty, "emitted but not expected: \(extra.prefix(5))")
  }

  // Each replay runs on a thread of its own (seconds of synchronous driving would hold a task
  // thread), one per core at a time, side by side, so that they preempt one another at different
  // places each run.
  @Test func replayOfTheProjectsEightSessionRecordingIsIdenticalOnEveryRun() async throws {
    let keys = GeneratedTrace.keys(seed: 3, count: 4_000, sessions: 8)
    let recording = keys.map(\.jsonLine).joined(separator: "\n")
    let replays = try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<4 { group.addTask { try await OwnThread.running { try Self.replay(recording) } } }
      return try await group.reduce(into: [[String]]()) { $0.append($1) }
    }
    let first = try #require(replays.first)
    #expect(replays.count == 4)
    #expect(first.count > 1_000)
    // Every search ends once in its session: as many ends as searches.
    let searches = first.filter { $0.contains(#""type":"search""#) }.count
    let ends = first.filter { $0.contains(#""type":"results""#) || $0.contains(#""type":"cancelled""#) }.count
    #expect(searches > 0 && searches == ends)
    for again in replays.dropFirst() { #expect(again == first) }
  }

  @Test func theSharedTracesArePresentInCI() {
    #expect(
      !SharedFixtures.mustBePresent || SharedFolder.traces != nil, "CI must have ../shared/traces beside the checkout")
  }

  /// Replays `recording` and renders the events the expected files list, in emission order.
  static func replay(_ recording: String) throws -> [String] {
    var configuration = PipelineConfiguration()
    configuration.cacheCapacity = 1_000_000
    configuration.cacheTimeToLive = nil
    configuration.minimumTermLength = 1
    configuration.debounce = .milliseconds(300)
    let log = EventLog()
    var lines = recording.split(separator: "\n", omittingEmptySubsequences: false).enumerated().makeIterator()
    try ReplayDriver(configuration: configuration) { clock in
      StubSource(latency: .milliseconds(401), clock: clock)
    }.run(sink: log.sink) {
      while let (index, line) = lines.next() {
        if line.isEmpty { continue }
        return InputLineParser.parse(String(line), line: index + 1)
      }
      return nil
    }
    return log.events.compactMap(render)
  }

  static func render(_ event: SearchEvent) -> String? {
    var fields: [String: Any] = ["at_ms": event.atMilliseconds, "session": event.session ?? NSNull()]
    switch event.kind {
    case .search(let term):
      fields["type"] = "search"
      fields["term"] = term
    case .results(let term, let source, _, _):
      fields["type"] = "results"
      fields["term"] = term
      fields["source"] = source.rawValue
    case .cleared:
      fields["type"] = "cleared"
    case .cancelled(let term, let reason):
      fields["type"] = "cancelled"
      fields["term"] = term
      fields["reason"] = reason.rawValue
    default:
      return nil
    }
    return canonical(fields)
  }

  static func canonical(json: String) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
    guard let fields = object as? [String: Any] else { throw CanonicalError.notAnObject(json) }
    return canonical(fields)
  }

  static func canonical(_ fields: [String: Any]) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else {
      return "\(fields)"
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The elements of `lhs` not matched one-for-one in `rhs` (a multiset difference).
  static func difference(_ lhs: [String], _ rhs: [String]) -> [String] {
    var counts: [String: Int] = [:]
    for line in rhs { counts[line, default: 0] += 1 }
    var result: [String] = []
    for line in lhs {
      if let count = counts[line], count > 0 {
        counts[line] = count - 1
      } else {
        result.append(line)
      }
    }
    return result
  }

  enum CanonicalError: Error { case notAnObject(String) }
}

/// The recorded traces in the shared folder beside the checkout, if present.
enum SharedFolder {
  static var traces: URL? {
    let folder = SharedFixtures.sharedFolder().appendingPathComponent("traces")
    return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
  }
}
