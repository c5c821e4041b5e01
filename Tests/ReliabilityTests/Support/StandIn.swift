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

/// Runs `body` with the built tool replaying, from a file, "taylor" at 0 ms then "love" at
/// 1,000 ms against a stand-in that answers "taylor" with nothing and never answers "love" (one
/// category, no retries, no disk cache, an hour's timeout): a replay of a network source left
/// waiting for an answer, its whole recording read. The recording is removed afterwards.
func withReplayWaitingForAnAnswer<T>(
  _ body: (RunningProcess, LoopbackHTTPServer) async throws -> T
) async throws -> T {
  try await withStandIn({ request in
    request.value(of: "term") == "love" ? .fault(.noAnswer) : .json(#"{"resultCount":0,"results":[]}"#)
  }) { server in
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-net-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recording = directory.appendingPathComponent("typed.jsonl")
    try Data((#"{"at_ms": 0, "term": "taylor"}"# + "\n" + #"{"at_ms": 1000, "term": "love"}"# + "\n").utf8)
      .write(to: recording)
    let tool = try RunningProcess(
      try toolBinary(),
      arguments: [
        "--replay", "--input", recording.path, "--source", server.url("/search").absoluteString,
        "--format", "jsonl", "--categories", "music", "--retries", "0", "--cache-dir", "none",
        "--timeout", "1h",
      ])
    return try await body(tool, server)
  }
}
