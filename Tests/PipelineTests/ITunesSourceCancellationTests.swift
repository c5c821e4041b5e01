// Cancelling a search aborts its HTTP request: the client closes the connection, the search throws
// CancellationError. Synchronised on the server's log, never on time.
import Foundation
import Pipeline
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ITunesSourceCancellationTests {
  @Test func cancellingTheTaskAbortsTheRequestAndThrowsCancellationError() async throws {
    try await withITunesServer({ _ in .fault(.noAnswer) }) { server, source in
      let search = Task { try await source.search(musicRequest()) }
      let log = await server.waitForRequests(count: 1)
      let arrival = try #require(log.first?.arrivedAt)
      #expect(log.first?.clientClosedEarly == false)
      search.cancel()
      let outcome = await search.result
      #expect(throws: CancellationError.self) { try outcome.get() }
      let closedAt = try #require(await server.waitForEarlyClose(ofRequest: 0))
      #expect(closedAt >= arrival)
    }
  }

  @Test func searchCancelledBeforeItStartsSendsNothing() async throws {
    try await withITunesServer({ _ in .json(FixtureRoutes.emptyAnswer) }) { server, source in
      let search = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await source.search(musicRequest())
      }
      let outcome = await search.result
      #expect(throws: CancellationError.self) { try outcome.get() }
      // A later search on the same server is the first request it sees.
      _ = try await source.search(musicRequest("after"))
      #expect(server.requests.map { $0.value(of: "term") } == ["after"])
    }
  }

  @Test func serverNoticesAClientThatGivesUpDuringADelay() async throws {
    let delayed = Reply(body: Data(FixtureRoutes.emptyAnswer.utf8), fault: .delay(.seconds(3_600)))
    try await withITunesServer({ _ in delayed }) { server, source in
      let search = Task { try await source.search(musicRequest()) }
      _ = await server.waitForRequests(count: 1)
      search.cancel()
      #expect(await server.waitForEarlyClose(ofRequest: 0) != nil)
      let outcome = await search.result
      #expect(throws: CancellationError.self) { try outcome.get() }
    }
  }
}
