// A gzip body that inflates about 1,032 times: the decompression bomb a hostile server sends.
//
// Built by hand, since the toolchain offers no compressor: one dynamic-Huffman deflate block
// (RFC 1951) whose literal/length code gives "length 258" a 1-bit code and whose one distance
// code ("distance 1") has 1 bit too. After a literal zero byte, each 2 zero bits repeat the
// previous 258 bytes, so the body is a few header bytes, a run of zero bytes, and the end code.

/// Writes the bomb.
public enum GzipBomb {
  /// A gzip member that inflates to `inflatedBytes` zero bytes (rounded to the next 258), about
  /// 1/1,032 of that in size.
  ///
  /// The trailer's CRC-32 and length are zero, so a client that inflated it all would then
  /// reject it: the bomb is for checking that a client stops long before that.
  public static func body(inflatingTo inflatedBytes: Int) -> [UInt8] {
    var bits = BitWriter()
    // The gzip header: magic, deflate, no flags, no time, no extra flags, OS unknown.
    bits.bytes([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF])
    bits.write(1, count: 1)  // the final block
    bits.write(2, count: 2)  // dynamic Huffman codes
    bits.write(286 - 257, count: 5)  // literal/length codes: up to 285 (length 258)
    bits.write(1 - 1, count: 5)  // distance codes: just 0 (distance 1)
    bits.write(18 - 4, count: 4)  // code-length codes sent, in the order below
    // Code-length code lengths, in RFC 1951's order: 18 (a run of zeros) gets 1 bit, 1 and 2 get 2.
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
    let lengths = [18: 1, 1: 2, 2: 2]
    for symbol in order { bits.write(lengths[symbol] ?? 0, count: 3) }
    // Canonical codes of that code: 18 → 0, 1 → 10, 2 → 11.
    let zeroRun = { (count: Int) in
      bits.huffman(0, length: 1)
      bits.write(count - 11, count: 7)
    }
    bits.huffman(0b11, length: 2)  // literal 0: length 2
    zeroRun(138)  // literals 1…138 unused
    zeroRun(117)  // literals 139…255 unused
    bits.huffman(0b11, length: 2)  // 256, the end of the block: length 2
    zeroRun(28)  // lengths 257…284 unused
    bits.huffman(0b10, length: 2)  // 285, length 258: length 1
    bits.huffman(0b10, length: 2)  // distance code 0: length 1
    // Canonical codes now: 285 → 0, literal 0 → 10, end of block → 11; distance 0 → 0.
    bits.huffman(0b10, length: 2)
    let repeats = max(0, inflatedBytes - 1 + 257) / 258
    bits.zeros(2 * repeats)
    bits.huffman(0b11, length: 2)
    bits.flush()
    bits.bytes([0, 0, 0, 0, 0, 0, 0, 0])
    return bits.output
  }
}

/// Bits in deflate's order: fields from their least significant bit, Huffman codes from their
/// most significant.
private struct BitWriter {
  var output: [UInt8] = []
  private var pending: UInt8 = 0
  private var pendingCount = 0

  mutating func write(_ value: Int, count: Int) {
    for index in 0..<count { bit(UInt8((value >> index) & 1)) }
  }

  mutating func huffman(_ code: Int, length: Int) {
    for index in (0..<length).reversed() { bit(UInt8((code >> index) & 1)) }
  }

  /// `count` zero bits, whole bytes at a time where it can.
  mutating func zeros(_ count: Int) {
    var left = count
    while left > 0 && pendingCount != 0 {
      bit(0)
      left -= 1
    }
    output.append(contentsOf: repeatElement(0, count: left / 8))
    for _ in 0..<(left % 8) { bit(0) }
  }

  mutating func bytes(_ bytes: [UInt8]) {
    flush()
    output.append(contentsOf: bytes)
  }

  mutating func flush() {
    guard pendingCount > 0 else { return }
    output.append(pending)
    pending = 0
    pendingCount = 0
  }

  private mutating func bit(_ value: UInt8) {
    pending |= value << UInt8(pendingCount)
    pendingCount += 1
    if pendingCount == 8 { flush() }
  }
}
