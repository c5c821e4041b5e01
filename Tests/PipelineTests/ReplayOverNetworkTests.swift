// A replay that talks to a real server: virtual time waits for the real answers instead of
// jumping past them to the search timeout.
import Foundation
import Pipeline
import Streams
import TestSupport
import Testing

@Suite struct ReplayOverNetworkTests {
  static let answer = #"{"resultCount":1,"results":[{"trackId":7,"trackName":"Karma Police","kind":"song"}]}"#

  @Test func aReplayWaitsForRealAnswersInsteadOfTimingOut() async throws {
    try await withITunesServer({ _ in
      Reply(status: 200, body: Data(Self.answer.utf8), fault: .delay(.milliseconds(150)))
    }) { server, source in
      var configuration = PipelineConfiguration()
      configuration.searchTimeout = .seconds(1)
      let log = EventLog()
      let keys = [(0, "radio"), (100, "radiohead"), (5_000, ""), (6_000, "radiohead")] as [(Int64, String)]
      var remaining = keys.enumerated().makeIterator()
      let summary = try ReplayDriver(configuration: configuration) { _ in source }.run(sink: log.sink) {
        guard let (index, key) = remaining.next() else { return nil }
        return .keystroke(Keystroke(term: key.1, atMilliseconds: key.0), line: index + 1)
      }
      // Real answers take 150 ms of real time but no virtual time: results at the search's instant.
      #expect(
        log.lines == [
          "search radiohead@400", "results radiohead load@400", "cleared@5000", "search radiohead@6000",
          "results radiohead cache@6000", "summary@6000",
        ])
      #expect(summary.requests == 3)
      #expect(server.requests.count == 3)
    }
  }
}
