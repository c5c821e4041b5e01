// The client against a "server" that sends what Redis never would: absurd lengths, endless
// lines, deep nesting, garbage, half a reply, or replies nobody asked for. Each is an error at
// once (before the claimed bytes are awaited, let alone allocated), never a crash or a hang.
import Foundation
import RESP
import TestSupport
import Testing

@Suite struct HostileReplyTests {
  /// What `GET k` gets from a server that replies `bytes` and then does `ending`.
  private func reply(
    _ bytes: [UInt8], then ending: ScriptedRESPServer.Ending = .keepOpen, limits: RESPLimits = RESPLimits(),
    timeout: Duration = .seconds(60)
  ) async throws -> Result<RESPValue, RESPError> {
    let server = try ScriptedRESPServer(reply: bytes, then: ending)
    defer { server.stop() }
    return try await OwnThread.value {
      do {
        let connection = try RESPConnection(endpoint: server.endpoint, options: .init(limits: limits))
        return .success(try connection.call(RESPCommand("GET", "k"), timeout: timeout))
      } catch let error as RESPError {
        return .failure(error)
      }
    }
  }

  private func violation(_ result: Result<RESPValue, RESPError>) -> String? {
    if case .failure(.protocolViolation(let reason)) = result { reason } else { nil }
  }

  // The connection is held open in each of these: an error that came only from a timeout (60 s)
  // or a close would show as a different error, not as the protocol violation expected.

  @Test func aTwoGigabyteBulkStringIsRefusedOnItsHeader() async throws {
    let result = try await reply(Array("$2000000000\r\n".utf8))
    #expect(violation(result) == "a bulk string of 2000000000 bytes (at most 67108864 accepted)")
  }

  @Test func aTwoBillionElementArrayIsRefusedOnItsHeader() async throws {
    let result = try await reply(Array("*2000000000\r\n".utf8))
    #expect(violation(result) == "an array of 2000000000 elements (at most 1048576 accepted)")
  }

  @Test func arraysNestedAThousandDeepAreRefused() async throws {
    let result = try await reply(Array(String(repeating: "*1\r\n", count: 1000).utf8))
    #expect(violation(result) == "arrays nested deeper than 16")
  }

  @Test func aStatusLineThatNeverEndsIsRefused() async throws {
    let result = try await reply(Array("+".utf8), then: .repeatForever([UInt8](repeating: 0x61, count: 4096)))
    #expect(violation(result) == "a line longer than 65536 bytes")
  }

  @Test func aBulkBodyThatNeverEndsIsRefusedAtTheReplyLimit() async throws {
    let limits = RESPLimits(maxBulkBytes: 1 << 30, maxReplyBytes: 4 << 20)
    let result = try await reply(
      Array("$1000000000\r\n".utf8), then: .repeatForever([UInt8](repeating: 0x62, count: 65536)), limits: limits)
    #expect(violation(result) == "a reply longer than 4194304 bytes")
  }

  @Test func manySmallElementsAreRefusedAtTheValueLimit() async throws {
    let result = try await reply(
      Array("*1000000\r\n".utf8), then: .repeatForever(Array(String(repeating: ":1\r\n", count: 1000).utf8)),
      limits: RESPLimits(maxValues: 10_000))
    #expect(violation(result) == "a reply of more than 10000 values")
  }

  @Test func anHTTPAnswerIsNotRESP() async throws {
    let result = try await reply(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
    #expect(violation(result) == "a reply starting with byte 0x48 (not RESP2)")
  }

  @Test func aRESP3ReplyIsRefused() async throws {
    let result = try await reply(Array("%1\r\n+a\r\n+b\r\n".utf8))
    #expect(violation(result) == "a reply starting with byte 0x25 (not RESP2)")
  }

  @Test func halfAReplyThenCloseIsAClosedConnection() async throws {
    let result = try await reply(Array("$10\r\nabc".utf8), then: .close)
    #expect(result == .failure(.closed))
  }

  @Test func aResetIsAClosedConnection() async throws {
    let result = try await reply(Array("$10\r\nabc".utf8), then: .reset)
    #expect(result == .failure(.closed))
  }

  @Test func silenceIsATimeout() async throws {
    let result = try await reply([], timeout: .milliseconds(300))
    #expect(result == .failure(.timedOut(.milliseconds(300))))
  }

  @Test func aReplyNobodyAskedForIsRefusedOnTheNextCall() async throws {
    let server = try ScriptedRESPServer(reply: Array("+OK\r\n+EXTRA\r\n".utf8))
    defer { server.stop() }
    let outcome = try await OwnThread.value { () -> (RESPValue, RESPError?) in
      let connection = try RESPConnection(endpoint: server.endpoint)
      let first = try connection.call(RESPCommand("PING"))
      do {
        _ = try connection.call(RESPCommand("PING"))
        return (first, nil)
      } catch let error as RESPError {
        return (first, error)
      }
    }
    #expect(outcome.0 == .simpleString("OK"))
    #expect(outcome.1 == .protocolViolation("data the client did not ask for"))
  }
}
