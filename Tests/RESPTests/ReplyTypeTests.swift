// Replies of a type their command never answers: well-formed RESP from a server (or a proxy in
// front of one) that is not the Redis the client speaks to. Each is refused with one error naming
// the command, inside a transaction too; against a real server, every reply passes.
import Foundation
import RESP
import TestSupport
import Testing

@Suite struct ReplyTypeTests {
  /// What `commands`, sent as one pipeline, get from a server that replies `bytes`.
  private func replies(to commands: [RESPCommand], from bytes: String) async throws -> Result<
    [RESPValue], RESPError
  > {
    let server = try ScriptedRESPServer(reply: Array(bytes.utf8))
    defer { server.stop() }
    return try await OwnThread.value {
      do {
        let connection = try RESPConnection(endpoint: server.endpoint)
        let result = Result<[RESPValue], RESPError>.success(try connection.pipeline(commands, timeout: .seconds(60)))
        return result
      } catch let error as RESPError {
        return .failure(error)
      }
    }
  }

  @Test func anIntegerForAnEntryIdIsRefused() async throws {
    let result = try await replies(to: [RESPCommand("XADD", "k", "*", "term", "a")], from: ":1\r\n")
    #expect(
      result == .failure(.unexpectedReply(command: "XADD", reply: "an integer (1)", expected: "a bulk string or null")))
    #expect(
      "\(RESPError.unexpectedReply(command: "XADD", reply: "an integer (1)", expected: "a bulk string or null"))"
        == "not a valid reply: XADD answered an integer (1), where it answers a bulk string or null")
  }

  @Test func aStatusForAnArrayIsRefused() async throws {
    let result = try await replies(to: [RESPCommand("MGET", "a", "b")], from: "+OK\r\n")
    #expect(result == .failure(.unexpectedReply(command: "MGET", reply: "a status (OK)", expected: "an array")))
  }

  @Test func theSecondReplyOfAPipelineIsCheckedAgainstItsOwnCommand() async throws {
    let commands = [RESPCommand("GET", "k"), RESPCommand("HSETNX", "h", "f", "v")]
    let result = try await replies(to: commands, from: "$1\r\nv\r\n$1\r\n1\r\n")
    #expect(
      result == .failure(.unexpectedReply(command: "HSETNX", reply: "a bulk string of 1 bytes", expected: "an integer"))
    )
  }

  @Test func anErrorReplyIsAValidAnswerToAnyCommand() async throws {
    let result = try await replies(to: [RESPCommand("XADD", "k", "*", "f", "v")], from: "-OOM no room\r\n")
    #expect(result == .success([.error("OOM no room")]))
  }

  @Test func aSubcommandIsCheckedAsItself() async throws {
    let result = try await replies(to: [RESPCommand("CLIENT", "ID")], from: "+OK\r\n")
    #expect(result == .failure(.unexpectedReply(command: "CLIENT ID", reply: "a status (OK)", expected: "an integer")))
  }

  @Test func aScriptsReplyIsItsOwnToChoose() async throws {
    let result = try await replies(to: [RESPCommand("EVALSHA", "0", 0)], from: "*1\r\n:3\r\n")
    #expect(result == .success([.array([.integer(3)])]))
  }

  @Test func aTransactionsRepliesAreEachCheckedAgainstTheirCommand() async throws {
    let commands = [RESPCommand("MULTI"), RESPCommand("XADD", "k", "*", "f", "v"), RESPCommand("EXEC")]
    let wrong = try await replies(to: commands, from: "+OK\r\n+QUEUED\r\n*1\r\n:7\r\n")
    #expect(
      wrong == .failure(.unexpectedReply(command: "XADD", reply: "an integer (7)", expected: "a bulk string or null")))
    let right = try await replies(to: commands, from: "+OK\r\n+QUEUED\r\n*1\r\n$3\r\n1-1\r\n")
    #expect(
      right == .success([.simpleString("OK"), .simpleString("QUEUED"), .array([.bulkString(Array("1-1".utf8))])]))
  }

  @Test func aCommandNotQueuedInsideMultiIsRefused() async throws {
    let commands = [RESPCommand("MULTI"), RESPCommand("XADD", "k", "*", "f", "v"), RESPCommand("EXEC")]
    let result = try await replies(to: commands, from: "+OK\r\n$3\r\n1-1\r\n*1\r\n$3\r\n1-1\r\n")
    #expect(
      result
        == .failure(
          .unexpectedReply(command: "XADD", reply: "a bulk string of 3 bytes", expected: "QUEUED inside MULTI")))
  }

  @Test func anExecWithMoreRepliesThanCommandsIsRefused() async throws {
    let commands = [RESPCommand("MULTI"), RESPCommand("INCR", "n"), RESPCommand("EXEC")]
    let result = try await replies(to: commands, from: "+OK\r\n+QUEUED\r\n*2\r\n:1\r\n:2\r\n")
    #expect(result == .failure(.protocolViolation("EXEC answered 2 replies for 1 commands")))
  }

  @Test func anExecVoidedByAWatchIsNull() async throws {
    let commands = [RESPCommand("MULTI"), RESPCommand("INCR", "n"), RESPCommand("EXEC")]
    let result = try await replies(to: commands, from: "+OK\r\n+QUEUED\r\n*-1\r\n")
    #expect(result == .success([.simpleString("OK"), .simpleString("QUEUED"), .null]))
  }

  @Test func theTableNamesWhatEachCommandAnswers() {
    #expect(RESPReplyKinds.expected(for: RESPCommand("xadd", "k", "*", "f", "v").arguments) == [.bulkString, .null])
    #expect(RESPReplyKinds.expected(for: RESPCommand("XGROUP", "create", "k", "g", "0").arguments) == .simpleString)
    #expect(RESPReplyKinds.expected(for: RESPCommand("XADD", "k", "*", "f", "v").arguments) == [.bulkString, .null])
    #expect(RESPReplyKinds.expected(for: RESPCommand("EVALSHA", "f00d", 0).arguments) == .any)
    #expect(RESPReplyKinds.expected(for: RESPCommand("NOSUCHCOMMAND").arguments) == .any)
    #expect(RESPReplyKinds([.bulkString, .null]).description == "a bulk string or null")
  }
}
