// A tiny seeded pseudo-random generator, so the generated filler catalog and the tests' random
// inputs are the same on every run and machine: the system generator is seeded per process.

/// SplitMix64 (Steele, Lea & Flood): one 64-bit state, one add and a mix per number.
///
/// Chosen over the system generator because its sequence is fixed by the seed alone, and over
/// heavier generators because the catalog needs speed and spread, not cryptographic strength.
package struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  /// A generator whose whole sequence is fixed by `seed`.
  package init(seed: UInt64) {
    state = seed
  }

  /// A generator for one numbered thing (an item, an artist) under a stream, so each thing's
  /// numbers do not depend on how many things were generated before it.
  package init(stream: UInt64, index: Int) {
    var mixer = SplitMix64(seed: stream &+ UInt64(truncatingIfNeeded: index) &* 0xA24B_AED4_963E_E407)
    state = mixer.next()
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (bound > 0). The modulo bias is below 2⁻⁴⁰ for the small bounds
  /// used here, and, unlike `Int.random(in:using:)`, the result is specified by this code alone.
  package mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: next() % UInt64(max(bound, 1)))
  }

  /// A number in `range` (not empty).
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
