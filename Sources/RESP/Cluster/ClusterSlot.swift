// Which of Redis Cluster's 16384 hash slots a key lies in: CRC16 (XMODEM: polynomial 0x1021, no
// reflection, initial value 0) of the key modulo 16384, or of its hash tag when it has one. Keys
// that share a tag share a slot, which is what lets one transaction or script touch several of
// them in a cluster.

/// The hash slot of a key in Redis Cluster.
///
/// ```swift
/// ClusterSlot.of("stream-search:config")       // the slot of the whole key
/// ClusterSlot.of("{stream-search:3}:keys")    // the slot of "stream-search:3"
/// ClusterSlot.crc16(Array("123456789".utf8))  // 0x31C3
/// ```
///
/// The hash tag is the part between the first `{` and the first `}` after it, when that part is
/// not empty; otherwise the whole key is hashed (`{}x` and `x{` hash whole).
public enum ClusterSlot {
  /// How many slots a cluster has.
  public static let count = 16_384

  /// The slot of `key` (its UTF-8 bytes).
  public static func of(_ key: String) -> Int { of(bytes: Array(key.utf8)) }

  /// The slot of a key given as bytes.
  public static func of(bytes key: [UInt8]) -> Int {
    Int(crc16(hashed(key)) & UInt16(count - 1))
  }

  /// The part of `key` that is hashed: its hash tag, or the whole key.
  public static func hashed(_ key: [UInt8]) -> ArraySlice<UInt8> {
    guard let open = key.firstIndex(of: UInt8(ascii: "{")),
      let close = key[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1
    else { return key[...] }
    return key[(open + 1)..<close]
  }

  /// CRC16-XMODEM of `bytes`.
  public static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for byte in bytes {
      crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
    }
    return crc
  }

  private static let table: [UInt16] = (0..<256).map { index in
    var crc = UInt16(index) << 8
    for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
    return crc
  }
}
