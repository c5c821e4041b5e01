// Which shard a session's keystrokes go to: a stable hash any producer can compute, in any
// language, so that a web tier can publish keystrokes without asking this program.

/// The partitioning rule: `shard = crc32(utf8(session)) mod shardCount`, where `crc32` is the
/// common CRC-32 (IEEE 802.3, the one of zlib, gzip, PNG and Ethernet: reflected polynomial
/// 0xEDB88320, initial value and final xor 0xFFFFFFFF) of the session name's UTF-8 bytes, read
/// as an unsigned 32-bit number. A keystroke without a session uses the empty name.
///
/// ```swift
/// let shard = ShardHash.shard(of: "u42", shardCount: 16)   // 0…15, the same in every process
/// // Python: zlib.crc32(b"u42") % 16   Go: crc32.ChecksumIEEE([]byte("u42")) % 16
/// // Java: new CRC32() updated with "u42".getBytes(UTF_8), getValue() % 16
/// ```
///
/// Check values: `crc32("123456789") == 0xCBF43926`, `crc32("") == 0`.
package enum ShardHash {
  /// The CRC-32 of `bytes`.
  package static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// The shard, in `0..<shardCount`, of a keystroke of `session` (nil: the unnamed session).
  package static func shard(of session: String?, shardCount: Int) -> Int {
    Int(crc32((session ?? "").utf8) % UInt32(max(1, shardCount)))
  }

  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }
}
