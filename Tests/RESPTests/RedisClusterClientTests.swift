// The cluster client against a real six-node cluster (replies in order across masters, a slot
// being migrated answered through `ASK`, a slot moved answered through `MOVED` and a new map) and
// against nodes that lie (a `MOVED` loop, `ASK` without a target, a bogus map, a master that has
// vanished): each is an answer or one clear error, never a hang.
import RESP
import Synchronization
import TestSupport
import Testing

@Suite(.enabled(if: RedisCluster.shouldRun, Comment(rawValue: RedisCluster.skipNote)))
struct RedisClusterClientTests {
  @Test func aPipelineAcrossMastersAnswersInOrderThroughAnyNode() async throws {
    let cluster = try await RedisCluster.start()
    defer { cluster.stop() }
    let client = try RedisClusterClient(seed: cluster.nodes[5].endpoint)
    let keys = (0..<60).map { "key-\($0)" }
    let sets = try client.pipeline(keys.map { RESPCommand("SET", $0, "v-\($0)") })
    #expect(sets.allSatisfy { $0 == .simpleString("OK") })
    let gets = try client.pipeline(keys.map { RESPCommand("GET", $0) })
    #expect(gets.map(\.string) == keys.map { "v-\($0)" })
    #expect(Set(keys.compactMap { client.map.master(of: ClusterSlot.of($0)) }).count == 3)
    #expect(try RedisClusterClient.slotMap(on: RESPConnection(endpoint: cluster.nodes[0].endpoint)) != nil)
  }

  @Test func aSlotBeingMigratedIsAskedThenAMovedSlotIsFollowed() async throws {
    let cluster = try await RedisCluster.start()
    defer { cluster.stop() }
    let client = try RedisClusterClient(seed: cluster.nodes[0].endpoint)
    let key = "migrating"
    let slot = ClusterSlot.of(key)
    let source = try #require(try cluster.master(of: slot))
    let target = try #require(cluster.nodes.prefix(3).first { $0.port != source.port })
    let from = try RESPConnection(endpoint: source.endpoint)
    let to = try RESPConnection(endpoint: target.endpoint)
    let fromID = try #require(try from.call(RESPCommand("CLUSTER", "MYID")).string)
    let toID = try #require(try to.call(RESPCommand("CLUSTER", "MYID")).string)
    _ = try to.call(RESPCommand("CLUSTER", "SETSLOT", slot, "IMPORTING", fromID))
    _ = try from.call(RESPCommand("CLUSTER", "SETSLOT", slot, "MIGRATING", toID))
    // The key is not on the source: it answers ASK, and the target answers after ASKING.
    #expect(try client.call(RESPCommand("SET", key, "moved")) == .simpleString("OK"))
    #expect(try to.pipeline([RESPCommand("ASKING"), RESPCommand("GET", key)]).last == .bulkString(Array("moved".utf8)))
    for node in cluster.nodes.prefix(3) {
      _ = try RESPConnection(endpoint: node.endpoint).call(RESPCommand("CLUSTER", "SETSLOT", slot, "NODE", toID))
    }
    // The source now answers MOVED: followed, and the map read again.
    #expect(try client.call(RESPCommand("GET", key)) == .bulkString(Array("moved".utf8)))
    #expect(try client.call(RESPCommand("GET", key)) == .bulkString(Array("moved".utf8)))
    #expect(client.map.master(of: slot)?.port == target.port)
  }

  @Test func aPlainRedisIsNoCluster() async throws {
    let server = try await RedisServer.start()
    defer { server.stop() }
    #expect(try RedisClusterClient.slotMap(on: RESPConnection(endpoint: server.endpoint)) == nil)
    #expect(throws: RESPError.self) {
      try RedisClusterClient(seed: RedisEndpoint(host: "127.0.0.1", port: server.port))
    }
  }
}

@Suite struct HostileClusterTests {
  /// A node that serves every slot itself and answers every keyed command with `answer`.
  private func node(answering answer: @escaping @Sendable (UInt16) -> String) throws -> FakeRedisServer {
    let port = Mutex<UInt16>(0)
    let server = try FakeRedisServer { command in
      let own = port.withLock { $0 }
      if command == ["CLUSTER", "SLOTS"] {
        return .reply("*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:\(own)\r\n")
      }
      return .reply(answer(own))
    }
    port.withLock { $0 = server.port }
    return server
  }

  @Test func aMovedLoopEndsInOneErrorAfterBoundedRedirections() throws {
    let server = try node { own in "-MOVED \(ClusterSlot.of("k")) 127.0.0.1:\(own)\r\n" }
    defer { server.stop() }
    let client = try RedisClusterClient(seed: RedisEndpoint(host: "127.0.0.1", port: server.port))
    #expect {
      try client.call(RESPCommand("GET", "k"))
    } throws: { error in
      guard case RESPError.notReady(let reason) = error else { return false }
      return reason.contains("redirected more than \(RedisClusterClient.maximumRedirections) times")
    }
    let gets = server.commands.filter { $0.first == "GET" }.count
    #expect(gets == RedisClusterClient.maximumRedirections + 1)
  }

  @Test func anAskWithoutATargetIsTheErrorItIs() throws {
    let server = try node { _ in "-ASK 12539\r\n" }
    defer { server.stop() }
    let client = try RedisClusterClient(seed: RedisEndpoint(host: "127.0.0.1", port: server.port))
    #expect(try client.call(RESPCommand("GET", "k")) == .error("ASK 12539"))
  }

  @Test func aBogusMapIsRefusedWithItsReason() throws {
    let server = try FakeRedisServer { _ in .reply("*1\r\n*3\r\n:9\r\n:3\r\n*2\r\n$1\r\nh\r\n:1\r\n") }
    defer { server.stop() }
    #expect {
      try RedisClusterClient(seed: RedisEndpoint(host: "127.0.0.1", port: server.port))
    } throws: { error in
      guard case RESPError.protocolViolation(let reason) = error else { return false }
      return reason.contains("9-3")
    }
  }

  @Test func aMasterThatVanishedIsAnErrorAndTheMapIsReadAgain() throws {
    let gone = try FakeRedisServer { _ in .reply("+OK\r\n") }
    let gonePort = gone.port
    gone.stop()
    // First a map naming a master that is gone, then one naming this node.
    let maps = Mutex<(served: Bool, own: UInt16)>((false, 0))
    let server = try FakeRedisServer { command in
      guard command == ["CLUSTER", "SLOTS"] else { return .reply("$2\r\nok\r\n") }
      let port = maps.withLock { state in
        defer { state.served = true }
        return state.served ? state.own : gonePort
      }
      return .reply("*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:\(port)\r\n")
    }
    maps.withLock { $0.own = server.port }
    defer { server.stop() }
    let client = try RedisClusterClient(seed: RedisEndpoint(host: "127.0.0.1", port: server.port))
    #expect(throws: RESPError.self) { try client.call(RESPCommand("GET", "k")) }
    #expect(try client.call(RESPCommand("GET", "k")) == .bulkString(Array("ok".utf8)))
    #expect(client.map.masters == [ClusterNode(host: "127.0.0.1", port: server.port)])
  }
}
