// swift-format-ignore-file
// The examples of Pipeline's DocC guides (Pipeline.docc), copied word for word and run, with what
// each guide says it shows checked. `everyPipelineDocExampleIsCopiedHere` fails when a guide's
// example changes without its copy here.
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@testable import Catalog
@testable import Pipeline

/// The source of the "Writing a source" guide, standing in for a remote service on the test clock.
struct SlowStore: SearchSource {
  let clock: ManualClock
  var name: String { "slow-store" }
  var isRemote: Bool { true }  // results say `source: network`, as a real service's would
  func search(_ request: SearchRequest) async throws -> [SearchItem] {
    try await clock.sleep(for: .milliseconds(250))  // virtual time: the replay moves it
    if request.category == .podcasts { throw SearchError.server(503) }
    return [SearchItem(id: request.term.count, trackName: request.term.capitalized)]
  }
}

@Suite struct DocExamplesPipelineGuidesTests {
  /// ManySearchFields.md: two people type at once; their searches are their own, the answer is shared.
  @Test func manySearchFields() async throws {
    let values = try await OwnThread.value {
      let recording = [
        #"{"at_ms":0,"session":"ana","term":"queen"}"#,
        #"{"at_ms":100,"session":"ben","term":"queen"}"#,
        #"{"at_ms":350,"session":"ana","term":"abba"}"#,   // Ana's "queen" search is in flight
        #"{"at_ms":2000,"session":"ben","term":"queen"}"#, // the text Ben searched last: no new search
      ]
      var lines = recording.enumerated().makeIterator()
      let driver = ReplayDriver { clock in CatalogSource(latency: .milliseconds(400), clock: clock) }
      let shown = Recorder<String>()  // StreamsTesting
      try driver.run(sink: { event in
        var line = "\(event.atMilliseconds) ms \(event.session ?? "-"): \(event.typeName)"
        if case .results(let term, let source, _, _) = event.kind { line += " \(term) (\(source))" }
        else if let term = event.term { line += " \(term)" }
        shown.append(line)
      }) {
        lines.next().map { InputLineParser.parse($0.element, line: $0.offset + 1) }
      }
      // shown.values == ["300 ms ana: search queen", "400 ms ben: search queen",
      //                  "650 ms ana: cancelled queen", "650 ms ana: search abba",
      //                  "700 ms ben: results queen (joined)", "1050 ms ana: results abba (load)",
      //                  "2000 ms -: summary"]
      return shown.values
    }
    #expect(values == ["300 ms ana: search queen", "400 ms ben: search queen",
                       "650 ms ana: cancelled queen", "650 ms ana: search abba",
                       "700 ms ben: results queen (joined)", "1050 ms ana: results abba (load)",
                       "2000 ms -: summary"])
  }

  /// WritingASource.md: one category's failure is its own; a search fails only when all do.
  @Test func writingASource() async throws {
    let values = try await OwnThread.value {
      var configuration = PipelineConfiguration()
      configuration.categories = [.music, .podcasts]
      var lines = [#"{"at_ms":0,"term":"abba"}"#].enumerated().makeIterator()
      let driver = ReplayDriver(configuration: configuration) { clock in SlowStore(clock: clock) }
      let outcomes = Recorder<String>()  // StreamsTesting
      try driver.run(sink: { event in
        guard case .results(_, _, let categories, let elapsed) = event.kind else { return }
        for result in categories {
          switch result.outcome {
          case .items(let items, let origin): outcomes.append("\(result.category): \(items.count) from \(origin)")
          case .failed(let error): outcomes.append("\(result.category): failed, \(error.kind)")
          }
        }
        outcomes.append("after \(elapsed) ms")
      }) {
        lines.next().map { InputLineParser.parse($0.element, line: $0.offset + 1) }
      }
      // outcomes.values == ["music: 1 from network", "podcasts: failed, server", "after 250 ms"]
      return outcomes.values
    }
    #expect(values == ["music: 1 from network", "podcasts: failed, server", "after 250 ms"])
  }

  /// CachingAnswers.md: an answer is fetched once; its time to live decides when it is asked again.
  @Test func cachingAnswers() async throws {
    let (values, summary) = try await OwnThread.value {
      var configuration = PipelineConfiguration()
      configuration.categories = [.music]
      configuration.cacheTimeToLive = .seconds(60)
      let recording = [
        #"{"at_ms":0,"term":"abba"}"#,
        #"{"at_ms":5000,"term":"queen"}"#,
        #"{"at_ms":10000,"term":"abba"}"#,   // 10 s after its answer: from memory
        #"{"at_ms":90000,"term":"queen"}"#,
        #"{"at_ms":95000,"term":"abba"}"#,   // past its 60 s: asked again
        #"{"at_ms":99000,"term":"abba"}"#,   // the text searched last: no new search
      ]
      var lines = recording.enumerated().makeIterator()
      let driver = ReplayDriver(configuration: configuration) { clock in SlowStore(clock: clock) }
      let origins = Recorder<String>()  // StreamsTesting
      let summary = try driver.run(sink: { event in
        if case .results(let term, _, let categories, _) = event.kind, case .items(_, let origin)? = categories.first?.outcome {
          origins.append("\(event.atMilliseconds) ms \(term): \(origin)")
        }
      }) {
        lines.next().map { InputLineParser.parse($0.element, line: $0.offset + 1) }
      }
      // origins.values == ["550 ms abba: network", "5550 ms queen: network", "10300 ms abba: cache",
      //                    "90550 ms queen: network", "95550 ms abba: network"]
      // summary.requests == 4, summary.cacheHits == 1
      return (origins.values, summary)
    }
    #expect(values == ["550 ms abba: network", "5550 ms queen: network", "10300 ms abba: cache",
                       "90550 ms queen: network", "95550 ms abba: network"])
    #expect(summary.requests == 4 && summary.cacheHits == 1)
  }
}
