// swift-format-ignore-file
// The examples below are copies of the docs, word for word, so the formatter must not reflow them.
// Every code example in Pipeline's doc comments, copied word for word into this target's tests
// and run (SearchSource's stub is SearchSourceIsNetworkTests'; the iTunes one is only compiled:
// it asks Apple's server, and tests have no internet).
// `everyPipelineDocExampleIsCopiedHere` fails when an example changes without its copy here.
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Synchronization
import Testing

@testable import Catalog
@testable import ITunes
@testable import Pipeline
@testable import SQLiteStorage

/// The request count of PipelineObserver's example (a global: an `Atomic` cannot be captured).
private let requests = Atomic<Int>(0)

@Suite struct DocExamplesPipelineTests {
  @Test func everyPipelineDocExampleIsCopiedHere() async throws {
    let (checked, missing) = try await DocExamples.uncopied(
      in: ["Sources/Pipeline", "Sources/Catalog", "Sources/ITunes", "Sources/SQLiteStorage"],
      copiesIn: "Tests/PipelineTests")
    #expect(missing == [], "examples with no copy in Tests/PipelineTests")
    #expect(checked >= 10)
  }

  @Test func searchTerm() {
    let term = SearchTerm("  Taylor\u{A0}\tSwift ")
    let shown = term.text  // "Taylor Swift" (shown, and sent in the request)
    let key = term.key     // "taylor swift" (the cache key and the distinct-until-changed key)
    #expect(shown == "Taylor Swift")
    #expect(key == "taylor swift")
  }

  @Test func inputLineParser() {
    let typed = InputLineParser.parse("Tay", line: 1)
    // .keystroke(Keystroke(term: "Tay"), line: 1)
    let recorded = InputLineParser.parse(#"{"term": "Tay", "at_ms": 1234, "session": "u42"}"#, line: 2)
    // .keystroke(Keystroke(term: "Tay", atMilliseconds: 1234, session: "u42"), line: 2)
    #expect(typed == .keystroke(Keystroke(term: "Tay"), line: 1))
    #expect(recorded == .keystroke(Keystroke(term: "Tay", atMilliseconds: 1234, session: "u42"), line: 2))
  }

  @Test func jsonLinesEncoder() {
    let event = SearchEvent(seq: 1, atMilliseconds: 1176, kind: .search(term: "taylor"))
    var buffer: [UInt8] = []
    JSONLinesEncoder().encode(event, into: &buffer)  // {"type":"search","seq":1,"at_ms":1176,"term":"taylor"}\n
    #expect(String(decoding: buffer, as: UTF8.self) == #"{"type":"search","seq":1,"at_ms":1176,"term":"taylor"}"# + "\n")
  }

  @Test func builtInCatalogForgivesATypo() async throws {
    try await OwnThread.running {
    let source = CatalogSource()  // the built-in catalog of real titles and names
    let songs = try await source.search(SearchRequest(term: "metalica", category: .music))
    #expect(songs.contains { $0.artistName == "Metallica" })
    }
  }

  @Test func catalogLatencyInVirtualTime() {
    let items = [CatalogTestItems.song(1, "Shake It Off", artist: "Taylor Swift", popularity: 90)]
    let request = SearchRequest(term: "shake", category: .music)
    let runner = VirtualTimeRunner()
    let source = CatalogSource(items: items, latency: .milliseconds(80), clock: runner.clock)
    let task = runner.start { try await source.search(request) }
    runner.advance(to: .milliseconds(79))  // task.isFinished == false
    #expect(task.isFinished == false)
    runner.advance(to: .milliseconds(80))  // task.isFinished == true
    #expect(task.isFinished == true)
  }

  @Test func catalogFile() throws {
    let items = [CatalogTestItems.song(1, "Shake It Off", artist: "Taylor Swift", popularity: 90)]
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("saved-search.json")
    try JSONEncoder().encode(items).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let saved = FileManager.default.temporaryDirectory.appendingPathComponent("saved-search.json").path
    let source = CatalogSource(items: try CatalogSource.load(contentsOf: saved))
    #expect(try CatalogSource.load(contentsOf: saved).map(\.trackName) == ["Shake It Off"])
    _ = source
  }

  @Test func answerStore() async {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-search-example").path
    let (warnings, warn) = AsyncStream.makeStream(of: String.self)  // shown to the user
    let store = SQLiteStore.open(directory: directory, wallClock: SystemWallClock()) { line in
      warn.yield("Warning: \(line)")
    }
    var configuration = PipelineConfiguration()
    configuration.store = store
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(store.status == .on)
    #expect(FileManager.default.fileExists(atPath: directory + "/cache.sqlite"))
    await store.flush()
    warn.finish()
    var said: [String] = []
    for await warning in warnings { said.append(warning) }
    #expect(said.isEmpty)
  }

  /// The landing page of Pipeline's documentation (Pipeline.docc/Pipeline.md): a replay in virtual time.
  @Test func pipelineLandingPageExample() throws {
    let recording = [
      #"{"at_ms":0,"term":"tay"}"#,
      #"{"at_ms":150,"term":"taylor"}"#,         // "tay" never settles
      #"{"at_ms":500,"term":"taylor swift"}"#,   // "taylor" settled at 450 ms; its search is in flight
      #"{"at_ms":2000,"term":"taylor swift"}"#,  // the same text again
    ]
    var lines = recording.enumerated().makeIterator()
    let driver = ReplayDriver { clock in CatalogSource(latency: .milliseconds(400), clock: clock) }
    let shown = Recorder<String>()  // StreamsTesting
    let summary = try driver.run(sink: { event in
      shown.append("\(event.atMilliseconds) ms: " + [event.typeName, event.term].compactMap { $0 }.joined(separator: " "))
    }) {
      lines.next().map { InputLineParser.parse($0.element, line: $0.offset + 1) }
    }
    // shown.values == ["450 ms: search taylor", "800 ms: cancelled taylor",
    //                  "800 ms: search taylor swift", "1200 ms: results taylor swift", "2000 ms: summary"]
    // summary.searches == 2, summary.cancellations == 1
    #expect(shown.values == ["450 ms: search taylor", "800 ms: cancelled taylor",
                             "800 ms: search taylor swift", "1200 ms: results taylor swift", "2000 ms: summary"])
    #expect(summary.searches == 2 && summary.cancellations == 1)
  }

  /// PipelineObserver.swift: an observer that counts the requests sent.
  @Test func closureObserver() throws {
    var configuration = PipelineConfiguration()
    configuration.observers.append(ClosureObserver { observation in
      if case .requestSent = observation { requests.add(1, ordering: .relaxed) }
    })
    configuration.categories = [.music]
    let driver = ReplayDriver(configuration: configuration) { clock in CatalogSource(latency: .milliseconds(100), clock: clock) }
    var lines = [#"{"at_ms":0,"term":"abba"}"#].enumerated().makeIterator()
    try driver.run(sink: { _ in }) { lines.next().map { InputLineParser.parse($0.element, line: $0.offset + 1) } }
    #expect(requests.load(ordering: .relaxed) == 1)
  }

  @Test func searchPipeline() async {
    await OwnThread.running {
    let keystrokes = AsyncFeed<InputRecord>()
    keystrokes.yield(.keystroke(Keystroke(term: "taylor swift"), line: 1))
    keystrokes.finish()
    // The input is finished, so the term settles at once: nothing waits on the real clock.
    let (events, sink) = AsyncStream.makeStream(of: SearchEvent.self)  // the screen reads `events`
    let pipeline = SearchPipeline(source: CatalogSource(), clock: ContinuousClock()) { event in
      sink.yield(event)
    }
    let summary = await pipeline.run(keystrokes)
    sink.finish()
    #expect(summary.searches == 1 && summary.results == 1)
    var shown: [String] = []
    for await event in events { shown.append(event.typeName) }
    #expect(shown == ["search", "results", "summary"])
    }
  }

  /// Compiled, never run: it asks Apple's server.
  func iTunesSource() async throws -> [SearchItem] {
    let source = ITunesSource(requestTimeout: .seconds(10))
    let songs = try await source.search(SearchRequest(term: "AC/DC", category: .music, limit: 10))
    return songs
  }
}
