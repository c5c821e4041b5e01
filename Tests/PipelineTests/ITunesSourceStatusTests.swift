// How ITunesSource maps each status and broken answer of a real HTTP server to SearchError.
import Foundation
import ITunes
import Pipeline
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ITunesSourceStatusTests {
  @Test func status200DecodesTheResults() async throws {
    let body = #"{"resultCount": 2, "results": [{"trackId": 1, "trackName": "A"}, {"trackId": 2}]}"#
    let items = try await withITunesServer({ _ in .json(body) }) { _, source in
      try await source.search(musicRequest())
    }
    #expect(items.map(\.id) == [1, 2])
    #expect(items.first?.trackName == "A")
  }

  @Test func resultsBeyondTheLimitAreDropped() async throws {
    let body = #"{"resultCount": 3, "results": [{"trackId": 1}, {"trackId": 2}, {"trackId": 3}]}"#
    let items = try await withITunesServer({ _ in .json(body) }) { _, source in
      try await source.search(musicRequest(limit: 2))
    }
    #expect(items.map(\.id) == [1, 2])
  }

  @Test(arguments: [
    (Reply.fault(.emptyBody403), SearchError.rateLimited),
    (Reply.status(429), SearchError.rateLimited),
    (Reply.status(500), SearchError.server(500)),
    (Reply.status(503), SearchError.server(503)),
    (Reply.status(418), SearchError.badStatus(418)),
    (Reply.status(400), SearchError.badStatus(400)),
  ])
  func failingStatusMapsToItsError(reply: Reply, expected: SearchError) async throws {
    try await withITunesServer({ _ in reply }) { server, source in
      await #expect(throws: expected) { try await source.search(musicRequest()) }
      #expect(server.requests.count == 1)
    }
  }

  @Test func status404MeansNoResults() async throws {
    let items = try await withITunesServer({ _ in .status(404) }) { _, source in
      try await source.search(musicRequest())
    }
    #expect(items.isEmpty)
  }

  @Test func htmlPageWithStatus200IsADecodingErrorWithAOneLineExcerpt() async throws {
    try await withITunesServer({ _ in .fault(.htmlPage) }) { _, source in
      let error = await #expect(throws: SearchError.self) { try await source.search(musicRequest()) }
      guard case .decoding(let excerpt) = error else {
        Issue.record("expected decoding, got \(String(describing: error))")
        return
      }
      #expect(excerpt.hasPrefix("<!DOCTYPE html>"))
      #expect(excerpt.count <= 120)
      #expect(!excerpt.contains("\n"))
    }
  }

  @Test func malformedJSONIsADecodingError() async throws {
    try await withITunesServer({ _ in .fault(.malformedJSON) }) { _, source in
      let error = await #expect(throws: SearchError.self) { try await source.search(musicRequest()) }
      #expect(error?.kind == "decoding")
    }
  }

  @Test func aContentLengthOverTheCapIsRefusedOnTheHeaders() async throws {
    // 64 MiB announced and none of it sent: only the headers can have refused it.
    let cap = 64 * 1024
    _ = try await withITunesServer(maxBodyBytes: cap, { _ in .fault(.announcedBody(length: 64 << 20, sending: 0)) }) {
      _, source in
      await #expect(
        throws: SearchError.decoding("body over 65536 bytes: Content-Length announces 67108864 bytes, refused unread")
      ) {
        try await source.search(musicRequest())
      }
    }
  }

  @Test func aBodyThatNeverEndsIsRefusedAtTheCap() async throws {
    let cap = 64 * 1024
    _ = try await withITunesServer(maxBodyBytes: cap, { _ in .fault(.endlessBody()) }) { _, source in
      await #expect(throws: SearchError.decoding("body over 65536 bytes")) {
        try await source.search(musicRequest())
      }
    }
  }

  @Test func bodyJustUnderTheCapIsAccepted() async throws {
    let cap = 64 * 1024
    _ = try await withITunesServer(maxBodyBytes: cap, { _ in .fault(.oversized(bytes: cap, chunked: true)) }) {
      _, source in
      let items = try await source.search(musicRequest())
      #expect(items.isEmpty)
    }
  }

  @Test func refusedConnectionIsOffline() async throws {
    let port = try LoopbackHTTPServer.closedPort()
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/search"))
    let source = ITunesSource(baseURL: url)
    let error = await #expect(throws: SearchError.self) { try await source.search(musicRequest()) }
    #expect(error?.kind == "offline")
  }

  @Test(arguments: [Fault.connectionReset, Fault.truncatedBody])
  func brokenConnectionIsOffline(fault: Fault) async throws {
    let body = #"{"resultCount": 1, "results": [{"trackId": 1, "trackName": "A long enough name"}]}"#
    try await withITunesServer({ _ in Reply(body: Data(body.utf8), fault: fault) }) { _, source in
      let error = await #expect(throws: SearchError.self) { try await source.search(musicRequest()) }
      #expect(error?.kind == "offline")
    }
  }

  @Test func noAnswerWithinTheRequestTimeoutIsTimedOut() async throws {
    // The one test that waits in real time: URLSession's own timer, 0.3 s (1 s on Linux, where
    // swift-corelibs-foundation counts the timeout in whole seconds; see ITunesSource).
    _ = try await withITunesServer(requestTimeout: .milliseconds(300), { _ in .fault(.noAnswer) }) { _, source in
      let started = ContinuousClock.now
      await #expect(throws: SearchError.timedOut) { try await source.search(musicRequest()) }
      #expect(ContinuousClock.now - started >= .milliseconds(300), "timed out before the timeout")
    }
  }
}
