// Bodies over the 8 MiB cap, through the built tool live. A Content-Length over the cap is refused
// on the headers: the error comes from a server that sends nothing more, and the tool closes the
// connection. A body that never ends, or a compressed one that inflates past the cap, is cut off
// once the decoded size passes the cap, and the tool's peak memory stays within a few caps of what
// the same search costs with a small answer. No verdict depends on how fast the machine reads.
import Foundation
import TestSupport
import Testing

/// A hostile answer, and whether the server would send it for ever (so that only the client can
/// end the connection: a close is then the client stopping early, whatever the machine's speed).
struct HostileBody: Sendable, CustomTestStringConvertible {
  var name: String
  var reply: Reply
  var endless: Bool

  var testDescription: String { name }

  static let all = [
    // Paced, so that what the tool reads before its abort lands is bounded by the pace rather
    // than by how fast loopback runs (32 MB/s at most: the cap is reached in a quarter second).
    HostileBody(
      name: "a chunked body that never ends", reply: .fault(.endlessBody(chunk: 64 * 1024, every: .milliseconds(2))),
      endless: true),
    HostileBody(
      name: "gzip bomb: 1 MB inflating to 1 GiB", reply: .fault(.gzipBomb(inflatedBytes: 1 << 30)), endless: false),
  ]
}

@Suite(.timeLimit(.minutes(10)), .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
struct BodyCapTests {
  static let cap = 8 << 20

  /// The tool, live, searching "abba" against `server`: started, the term typed, and its first
  /// answer (`seq` 2) out. A 60 s timeout: a search that waits for a body the server never sends
  /// ends as `timedOut`, which no test here expects, rather than as the error it checks.
  static func searching(against server: LoopbackHTTPServer) async throws -> RunningProcess {
    let tool = try RunningProcess(
      try toolBinary(),
      arguments: [
        "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
        "--retries", "0", "--timeout", "60s",
      ])
    tool.write("abba\n")
    await tool.waitForLine(containing: #""seq":2,"#)
    return tool
  }

  /// The event that ended the search, once the tool has exited 0 on the end of its input.
  static func ending(of tool: RunningProcess) async throws -> ToolEvent {
    tool.closeInput()
    #expect(await tool.waitForExit() == 0)
    let events = try toolEvents(tool.lines.joined(separator: "\n"))
    return try #require(events.first { $0.type != "search" })
  }

  /// Waits, with the tool still running, until it has closed the connection of request 0: true
  /// when it did within a minute (the bound of "eventually": the abort may queue behind a
  /// loaded machine's work, but must come without the tool exiting).
  static func closedEarly(_ server: LoopbackHTTPServer) async -> Bool {
    await resultOf({ await server.waitForEarlyClose(ofRequest: 0) }, within: .seconds(60)) != nil
  }

  @Test func aContentLengthOverTheCapIsRefusedOnItsHeadersWithNothingOfTheBodyRead() async throws {
    // A terabyte announced, 16 bytes sent, then nothing more for as long as the connection is
    // open: an answer before the timeout can only come from the headers.
    try await withStandIn({ _ in .fault(.announcedBody(length: 1_000_000_000_000, sending: 16)) }) { server in
      let tool = try await Self.searching(against: server)
      #expect(await Self.closedEarly(server), "the tool kept the connection of a refused body open")
      let ending = try await Self.ending(of: tool)
      #expect(ending.brief == "error abba decoding")
      let message = ending.errorMessage ?? ""
      #expect(
        message.contains("body over 8 MiB: Content-Length announces 1000000000000 bytes, refused unread"), "\(message)")
      #expect(server.requests.count == 1)
      #expect(server.requests.first?.bodyBytesSent == 16)
    }
  }

  @Test(arguments: HostileBody.all)
  func aBodyOverTheCapIsAbortedAtTheCapAndMemoryStaysNearTheBaseline(body: HostileBody) async throws {
    let baseline = try await withStandIn({ _ in .json(answerBody(for: "abba", count: 5)) }) { server in
      let tool = try await Self.searching(against: server)
      let peak = try LoadTests.peakResidentKilobytes(of: tool.processIdentifier)
      #expect(try await Self.ending(of: tool).type == "results")
      return peak
    }
    try await withStandIn({ _ in body.reply }) { server in
      let tool = try await Self.searching(against: server)
      if body.endless {
        // The server never ends this body: only the tool can close, and must, while it runs.
        #expect(await Self.closedEarly(server), "the tool kept reading a body over the cap")
      }
      let peak = try LoadTests.peakResidentKilobytes(of: tool.processIdentifier)
      let ending = try await Self.ending(of: tool)
      #expect(ending.brief == "error abba decoding")
      #expect(ending.errorMessage?.contains("body over 8 MiB") == true, "\(ending.errorMessage ?? "")")
      // The body held (one cap), the chunks in flight and the allocator's slack: three caps
      // leave room for a loaded machine; reading it all cost 140 MB (and 340 MB for the bomb).
      let allowance = 3 * Self.cap / 1024
      #expect(peak <= baseline + allowance, "peak \(peak) kB against a baseline of \(baseline) kB")
    }
  }
}
