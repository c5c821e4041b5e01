// The partitioning rule other languages must reproduce: CRC-32 (zlib's) of the session's UTF-8,
// modulo the shard count. The check values are zlib's own.
import Testing

@testable import ScaleOut

@Suite struct ShardHashTests {
  @Test func isTheCRC32EveryLanguageHas() {
    #expect(ShardHash.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(ShardHash.crc32([UInt8]()) == 0)
    // Python: zlib.crc32(b"u42"), zlib.crc32("café".encode())
    #expect(ShardHash.crc32(Array("u42".utf8)) == 0xDE86_D1DE)
    #expect(ShardHash.crc32(Array("café".utf8)) == 0x98AD_42B5)
  }

  @Test func theShardIsTheHashModuloTheCount() {
    #expect(ShardHash.shard(of: "u42", shardCount: 16) == Int(0xDE86_D1DE % 16))
    #expect(ShardHash.shard(of: nil, shardCount: 16) == 0, "the unnamed session hashes the empty name")
    #expect(ShardHash.shard(of: "anything", shardCount: 1) == 0)
  }

  @Test func spreadsSessionsOverEveryShard() {
    var counts = [Int](repeating: 0, count: 16)
    for index in 0..<16_000 { counts[ShardHash.shard(of: "user-\(index)", shardCount: 16)] += 1 }
    #expect(counts.allSatisfy { $0 > 800 && $0 < 1_200 }, "\(counts)")
  }
}
