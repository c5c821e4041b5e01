// Redis Cluster's addressing, checked by known values and hostile input: CRC16 and key slots
// (hash tags included) against the figures Redis documents, `MOVED`/`ASK` replies that parse and
// ones that must not, and `CLUSTER SLOTS` maps that are refused with a reason; then the map of a
// real six-node cluster, whose every slot's master answers without a redirection.
import RESP
import TestSupport
import Testing

@Suite struct ClusterSlotTests {
  @Test func crc16MatchesTheKnownVector() {
    #expect(ClusterSlot.crc16(Array("123456789".utf8)) == 0x31C3)
    #expect(ClusterSlot.crc16([UInt8]()) == 0)
  }

  @Test(arguments: [
    ("foo", 12_182), ("bar", 5_061), ("hello", 866), ("{user1000}.following", 3_443),
    ("{user1000}.followers", 3_443), ("foo{}{bar}", 8_363), ("foo{{bar}}zap", 4_015), ("foo{bar}{zap}", 5_061),
  ])
  func aKeysSlotIsItsTagsOrItsOwn(key: String, slot: Int) {
    #expect(ClusterSlot.of(key) == slot)
  }

  @Test func aDeploymentsShardKeysShareTheirTagsSlot() {
    #expect(ClusterSlot.of("{stream-search:3}:keys") == ClusterSlot.of("stream-search:3"))
    #expect(ClusterSlot.of("{stream-search:3}:lease") == ClusterSlot.of("{stream-search:3}:events"))
    #expect(ClusterSlot.of("{}x") == ClusterSlot.of(bytes: Array("{}x".utf8)))
  }

  @Test(arguments: [
    ("MOVED 3999 127.0.0.1:6381", ClusterRedirect(kind: .moved, slot: 3999, host: "127.0.0.1", port: 6381)),
    ("ASK 0 node-2.example:7000", ClusterRedirect(kind: .ask, slot: 0, host: "node-2.example", port: 7000)),
    ("MOVED 16383 ::1:6379", ClusterRedirect(kind: .moved, slot: 16_383, host: "::1", port: 6379)),
    ("MOVED 5 [fe80::1]:6379", ClusterRedirect(kind: .moved, slot: 5, host: "fe80::1", port: 6379)),
    ("ASK 7 :6390", ClusterRedirect(kind: .ask, slot: 7, host: "10.0.0.9", port: 6390)),
  ])
  func aRedirectionNamesItsSlotAndNode(message: String, expected: ClusterRedirect) {
    #expect(ClusterRedirect(error: message, from: "10.0.0.9") == expected)
  }

  @Test(arguments: [
    "MOVED", "MOVED 3999", "MOVED 3999 127.0.0.1", "MOVED 16384 127.0.0.1:6379", "MOVED -1 127.0.0.1:6379",
    "MOVED 3999 127.0.0.1:0", "MOVED 3999 127.0.0.1:65536", "MOVED 3999 127.0.0.1:port", "ASK 3999 :6381",
    "MOVED  3999 127.0.0.1:6379", "MOVED 3999 127.0.0.1:6379 extra", "moved 3999 127.0.0.1:6379",
    "ERR MOVED 3999 127.0.0.1:6379", "MOVED 99999999999999999999 127.0.0.1:6379",
    "MOVED 3999 " + String(repeating: "a", count: 5_000) + ":6379", "WRONGTYPE Operation against a key",
  ])
  func anythingElseIsNoRedirection(message: String) {
    #expect(ClusterRedirect(error: message) == nil)
  }

  private func node(_ host: String, _ port: Int64) -> RESPValue {
    .array([.bulkString(Array(host.utf8)), .integer(port), .bulkString(Array("id".utf8))])
  }

  @Test func aMapGivesEachSlotItsMaster() throws {
    let reply = RESPValue.array([
      .array([.integer(0), .integer(8191), node("127.0.0.1", 7000), node("127.0.0.1", 7003)]),
      .array([.integer(8192), .integer(16383), node("", 7001)]),
    ])
    let map = try ClusterSlotMap(slots: reply, askedHost: "10.1.1.1")
    #expect(map.master(of: 0) == ClusterNode(host: "127.0.0.1", port: 7000))
    #expect(map.master(of: 16_383) == ClusterNode(host: "10.1.1.1", port: 7001))
    #expect(map.replicas(of: 100) == 1)
    #expect(map.replicas(of: 9000) == 0)
    #expect(map.coveredSlots == 16_384)
    #expect(map.master(of: 16_384) == nil)
  }

  @Test(arguments: [
    RESPValue.array([]), .null, .integer(3), .array([.integer(0)]),
    .array([.array([.integer(5), .integer(4), .array([.bulkString(Array("h".utf8)), .integer(1)])])]),
    .array([.array([.integer(0), .integer(16384), .array([.bulkString(Array("h".utf8)), .integer(1)])])]),
    .array([.array([.integer(-1), .integer(3), .array([.bulkString(Array("h".utf8)), .integer(1)])])]),
    .array([.array([.integer(0), .integer(3), .array([.bulkString(Array("h".utf8)), .integer(0)])])]),
    .array([.array([.integer(0), .integer(3), .array([.bulkString(Array("h".utf8)), .integer(70_000)])])]),
    .array([.array([.integer(0), .integer(3), .array([.integer(1), .integer(1)])])]),
    .array([.array([.integer(0), .integer(3), .array([.bulkString(Array("a b".utf8)), .integer(1)])])]),
    .array([
      .array([.integer(0), .integer(10), .array([.bulkString(Array("h".utf8)), .integer(1)])]),
      .array([.integer(10), .integer(20), .array([.bulkString(Array("g".utf8)), .integer(2)])]),
    ]),
    .array([.array([.integer(0), .integer(3), .array([.bulkString(Array("h".utf8)), .integer(1)]), .null])]),
  ])
  func aBogusMapIsRefusedWithItsReason(reply: RESPValue) {
    #expect(throws: RESPError.self) { try ClusterSlotMap(slots: reply, askedHost: "127.0.0.1") }
  }
}

@Suite(.enabled(if: RedisCluster.shouldRun, Comment(rawValue: RedisCluster.skipNote)))
struct RealClusterMapTests {
  @Test func everySlotsMasterAnswersWithoutARedirection() async throws {
    let cluster = try await RedisCluster.start()
    defer { cluster.stop() }
    let map = try cluster.slotMap(from: 4)
    #expect(map.masters.count == 3)
    #expect(map.coveredSlots == ClusterSlot.count)
    for key in ["stream-search:config", "{stream-search:0}:keys", "{stream-search:1}:keys", "x"] {
      let master = try #require(map.master(of: ClusterSlot.of(key)))
      let connection = try RESPConnection(endpoint: RedisEndpoint(host: master.host, port: master.port))
      #expect(try connection.call(RESPCommand("SET", key, "1")) == .simpleString("OK"))
      let other = try #require(map.masters.first { $0 != master })
      let elsewhere = try RESPConnection(endpoint: RedisEndpoint(host: other.host, port: other.port))
      let moved = try elsewhere.call(RESPCommand("GET", key))
      #expect(
        ClusterRedirect(error: moved.errorMessage ?? "")
          == ClusterRedirect(kind: .moved, slot: ClusterSlot.of(key), host: master.host, port: master.port))
    }
  }
}
