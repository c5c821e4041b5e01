// A tiny seeded pseudo-random generator, so that random test inputs (and the generated filler
// catalog) are the same on every run and machine: the system generator is seeded per process.

/// SplitMix64 (Steele, Lea & Flood): one 64-bit state, one add and a mix per number.
///
/// Useful for random test inputs that a failure can be reproduced from: the whole sequence is
/// fixed by the seed alone, on every platform, so print the seed and the same input comes back.
/// Chosen over heavier generators because tests need speed and spread, not cryptographic strength.
///
/// ```swift
/// var random = SplitMix64(seed: 2026)
/// let gaps = (0..<100).map { _ in 40 + random.below(141) }   // the same 100 gaps on every run
/// let word = ["tay", "taylor", "swift"].randomElement(using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose whole sequence is fixed by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// A generator for one numbered thing (an item, an artist) under a stream, so each thing's
  /// numbers do not depend on how many things were generated before it.
  public init(stream: UInt64, index: Int) {
    var mixer = SplitMix64(seed: stream &+ UInt64(truncatingIfNeeded: index) &* 0xA24B_AED4_963E_E407)
    state = mixer.next()
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`, or 0 for a bound below 1. The modulo bias is below 2⁻⁴⁰ for bounds
  /// under 2²⁴, and, unlike `Int.random(in:using:)`, the result is specified by this code alone.
  public mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: next() % UInt64(max(bound, 1)))
  }

  // The helpers below trap on an empty list or a range wider than Int: package-only, for the
  // filler catalog, whose arguments are its own constants.

  /// A number in `range` (at most `Int.max` wide).
  package mutating func within(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.count)
  }

  /// One element of `list` (not empty).
  package mutating func pick<Element>(_ list: [Element]) -> Element {
    list[below(list.count)]
  }

  /// True with the given chance in percent.
  package mutating func chance(_ percent: Int) -> Bool {
    below(100) < percent
  }
}
