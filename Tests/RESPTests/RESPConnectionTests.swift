// The client against a real redis-server: commands, pipelines, binary values, credentials,
// databases, and what a lost server, a timeout and a stop request do to a call.
import Foundation
import LineIO
import RESP
import Streams
import TestSupport
import Testing

@Suite(.needsRedis) struct RESPConnectionTests {
  @Test func answersCommandsInOrder() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    #expect(try connection.call(RESPCommand("PING")) == .simpleString("PONG"))
    #expect(try connection.call(RESPCommand("SET", "k", "v")) == .simpleString("OK"))
    #expect(try connection.call(RESPCommand("GET", "k")) == .bulkString(Array("v".utf8)))
    #expect(try connection.call(RESPCommand("GET", "missing")) == .null)
    #expect(try connection.call(RESPCommand("INCRBY", "n", 5)) == .integer(5))
  }

  @Test func anErrorReplyIsAValueAndTheConnectionGoesOn() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    _ = try connection.call(RESPCommand("SET", "k", "v"))
    let replies = try connection.pipeline([RESPCommand("LPUSH", "k", "x"), RESPCommand("GET", "k")])
    #expect(replies[0].errorMessage?.hasPrefix("WRONGTYPE") == true)
    #expect(replies[1].string == "v")
    #expect(!connection.isClosed)
  }

  @Test func aPipelineOfTenThousandCommandsIsAnsweredInOrder() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    let commands = (0..<10_000).map { RESPCommand("RPUSH", "list", $0) }
    let replies = try connection.pipeline(commands, timeout: .seconds(60))
    #expect(replies == (1...10_000).map { RESPValue.integer(Int64($0)) })
    let range = try connection.call(RESPCommand("LRANGE", "list", 0, -1))
    #expect(range.array?.compactMap(\.integer) == (0..<10_000).map(Int64.init))
  }

  @Test func valuesAreBinarySafeAndLargeOnesArriveWhole() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let connection = try RESPConnection(endpoint: server.endpoint)
    let every = (0...255).map(UInt8.init)
    // Several megabytes: many reads of the socket for one reply.
    let large = [UInt8](repeating: 0xA5, count: 3 << 20) + every
    _ = try connection.pipeline([RESPCommand("SET", "bytes", every), RESPCommand("SET", "large", large)])
    #expect(try connection.call(RESPCommand("GET", "bytes")) == .bulkString(every))
    #expect(try connection.call(RESPCommand("GET", "large"), timeout: .seconds(60)) == .bulkString(large))
  }

  @Test func aReplyOverTheClientsLimitIsRefusedAndTheConnectionClosed() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let setup = try RESPConnection(endpoint: server.endpoint)
    _ = try setup.call(RESPCommand("SET", "big", [UInt8](repeating: 7, count: 2 << 20)))
    let limited = try RESPConnection(
      endpoint: server.endpoint, options: .init(limits: RESPLimits(maxBulkBytes: 1 << 20)))
    #expect(throws: RESPError.protocolViolation("a bulk string of 2097152 bytes (at most 1048576 accepted)")) {
      try limited.call(RESPCommand("GET", "big"))
    }
    #expect(limited.isClosed)
    #expect(throws: RESPError.closed) { try limited.call(RESPCommand("PING")) }
  }

  @Test func authenticatesAndSelectsTheDatabaseOfTheURL() async throws {
    let server = try await RedisServer.start(extraArguments: ["--requirepass", "s@cret"])
    defer { server.stop() }
    let endpoint = try RedisEndpoint(url: "redis://:s%40cret@127.0.0.1:\(server.port)/3")
    let connection = try RESPConnection(endpoint: endpoint)
    _ = try connection.call(RESPCommand("SET", "k", "in three"))
    let plain = try RESPConnection(endpoint: RedisEndpoint(host: "127.0.0.1", port: server.port, password: "s@cret"))
    #expect(try plain.call(RESPCommand("GET", "k")) == .null)
    _ = try plain.call(RESPCommand("SELECT", 3))
    #expect(try plain.call(RESPCommand("GET", "k")).string == "in three")
  }

  @Test func aWrongPasswordIsTheServersRefusal() async throws {
    let server = try await RedisServer.start(extraArguments: ["--requirepass", "right"])
    defer { server.stop() }
    let error = #expect(throws: RESPError.self) {
      try RESPConnection(endpoint: RedisEndpoint(host: "127.0.0.1", port: server.port, password: "wrong"))
    }
    guard case .server(let message) = error else {
      Issue.record("expected the server's refusal, got \(String(describing: error))")
      return
    }
    #expect(message.contains("WRONGPASS") || message.contains("invalid"))
    #expect(error?.isTransient == false)
  }

  @Test func aPortWithNoServerIsRefusedAtOnce() throws {
    let port = try LoopbackHTTPServer.closedPort()
    let error = #expect(throws: RESPError.self) {
      try RESPConnection(endpoint: RedisEndpoint(host: "127.0.0.1", port: port))
    }
    #expect(error == .connectFailed(errno: ECONNREFUSED))
    #expect(error?.isTransient == true)
  }

  @Test func aBlockedCallEndsWhenTheStopSignalFires() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let stop = try CancellationSignal()
    let outcome = try await OwnThread.value { () -> RESPError? in
      let connection = try RESPConnection(endpoint: server.endpoint, stoppingOn: stop)
      // BLPOP with no timeout blocks until a push that never comes; only the stop ends it.
      Thread.detachNewThread { stop.signal() }
      do {
        _ = try connection.call(RESPCommand("BLPOP", "nothing", 0), timeout: .seconds(600))
        return nil
      } catch let error as RESPError {
        return error
      }
    }
    #expect(outcome == .stopped)
  }

  @Test func aReplyThatDoesNotComeInTimeIsATimeout() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let outcome = try await OwnThread.value { () -> (RESPError?, Bool) in
      let connection = try RESPConnection(endpoint: server.endpoint)
      do {
        _ = try connection.call(RESPCommand("BLPOP", "nothing", 0), timeout: .milliseconds(200))
        return (nil, connection.isClosed)
      } catch let error as RESPError {
        return (error, connection.isClosed)
      }
    }
    #expect(outcome.0 == .timedOut(.milliseconds(200)))
    #expect(outcome.1, "a timed-out connection is closed: its next reply would be the late one")
  }

  @Test func aServerKilledMidCallClosesTheConnection() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    let outcome = try await OwnThread.value { () -> RESPError? in
      let connection = try RESPConnection(endpoint: server.endpoint)
      Thread.detachNewThread { server.kill() }
      do {
        _ = try connection.call(RESPCommand("BLPOP", "nothing", 0), timeout: .seconds(600))
        return nil
      } catch let error as RESPError {
        return error
      }
    }
    #expect(outcome == .closed)
    #expect(outcome?.isTransient == true)
  }
}
