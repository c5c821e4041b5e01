// Starts a loopback server and an ITunesSource pointed at it, for the ITunesSource tests.
import Foundation
import ITunes
import Pipeline
import TestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Runs `body` with a started server answering with `handler` and a source aimed at its
/// `/search`; the server is stopped (all its threads joined) afterwards.
func withITunesServer<T>(
  maxBodyBytes: Int = 8 << 20, requestTimeout: Duration? = nil,
  _ handler: @escaping LoopbackHTTPServer.Handler,
  _ body: (LoopbackHTTPServer, ITunesSource) async throws -> T
) async throws -> T {
  let server = LoopbackHTTPServer(handler: handler)
  try server.start()
  defer { server.stop() }
  let source = ITunesSource(
    baseURL: server.url("/search"), session: URLSession(configuration: .ephemeral),
    maxBodyBytes: maxBodyBytes, requestTimeout: requestTimeout
  )
  return try await body(server, source)
}

/// A music request for `term`.
func musicRequest(_ term: String = "abba", limit: Int = 25) -> SearchRequest {
  SearchRequest(term: term, category: .music, limit: limit)
}
