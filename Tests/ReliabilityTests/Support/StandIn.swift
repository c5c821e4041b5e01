// The iTunes stand-in for the reliability tests: a loopback server, and the built tool aimed at it.
import Foundation
import TestSupport
import Testing

/// Runs `body` with a started loopback server answering with `handler`; stops it afterwards
/// (all its threads joined).
func withStandIn<T>(
  _ handler: @escaping LoopbackHTTPServer.Handler, _ body: (LoopbackHTTPServer) async throws -> T
) async throws -> T {
  let server = LoopbackHTTPServer(handler: handler)
  try server.start()
  defer { server.stop() }
  return try await body(server)
}

/// Runs the tool replaying `input` against `server`'s `/search`, with `arguments` after the
/// source; checks it exited 0 with nothing on stderr, and returns its events.
func replayAgainst(
  _ server: LoopbackHTTPServer, _ input: Data, arguments: [String] = ["--categories", "music", "--retries", "0"]
) async throws -> [ToolEvent] {
  let result = try await Subprocess.run(
    try toolBinary(),
    arguments: ["--replay", "--source", server.url("/search").absoluteString, "--format", "jsonl"] + arguments,
    input: input)
  #expect(result.status == 0 && !result.terminatedBySignal, "status \(result.status): \(result.stderr)")
  #expect(result.stderr == "")
  return try toolEvents(result.stdout)
}

/// The `term` parameters the server received, in arrival order.
func requestedTerms(_ server: LoopbackHTTPServer) -> [String] {
  server.requests.map { $0.value(of: "term") ?? "" }
}
