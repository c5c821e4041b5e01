// Durations as the command line writes them: `300ms`, `1.5s`, `2m`, `1h`, `0`. Parsing and
// printing live together so that help's `(default: …)` texts are always values the parser takes.

/// Why a duration's text could not be read.
enum DurationSyntaxError: Error, Equatable, Sendable {
  /// A plain non-zero number such as `300`: the unit is ambiguous, so the user must say it.
  case missingUnit(number: String)
  /// Not a number followed by `ms`, `s`, `m` or `h`.
  case malformed
  /// Larger than a `Duration` of whole nanoseconds can hold (about 292 years).
  case tooLarge
}

/// A unit a command-line duration may carry.
enum DurationUnit: String, CaseIterable, Sendable {
  /// `ms`.
  case milliseconds = "ms"
  /// `s`.
  case seconds = "s"
  /// `m`: minutes, as in `2m` (never months or metres).
  case minutes = "m"
  /// `h`.
  case hours = "h"

  /// Nanoseconds in one of this unit.
  var nanoseconds: Int64 {
    switch self {
    case .milliseconds: 1_000_000
    case .seconds: 1_000_000_000
    case .minutes: 60_000_000_000
    case .hours: 3_600_000_000_000
    }
  }
}

extension Duration {
  /// Parses a command-line duration: digits, an optional fraction, then a unit (`ms`, `s`, `m`,
  /// `h`), e.g. `300ms`, `1.5s`, `2m`, `1h`. A bare `0` needs no unit. Fractions finer than a
  /// nanosecond are dropped.
  ///
  /// - Throws: ``DurationSyntaxError/missingUnit(number:)`` for a bare non-zero number,
  ///   ``DurationSyntaxError/malformed`` for anything else that is not a duration (including a sign),
  ///   ``DurationSyntaxError/tooLarge`` past `Int64.max` nanoseconds.
  init(commandLineText text: String) throws(DurationSyntaxError) {
    // Longest suffix first, so that `ms` is not read as `m` after a number ending in `s`.
    let units = DurationUnit.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
    let unit = units.first { text.hasSuffix($0.rawValue) }
    let number = unit.map { String(text.dropLast($0.rawValue.count)) } ?? text
    guard let (whole, fraction) = Self.splitDecimal(number) else { throw .malformed }
    let isZero = (whole + fraction).allSatisfy { $0 == "0" }
    guard let unit else {
      if isZero {
        self = .zero
        return
      }
      throw .missingUnit(number: number)
    }
    // Int128 holds whole × unit and fraction × unit without overflow for any input we keep.
    let digits = fraction.prefix(18)
    guard whole.count <= 20, let wholeValue = Int128(whole), let fractionValue = Int128("0" + digits) else {
      throw .tooLarge
    }
    var scale: Int128 = 1
    for _ in digits { scale *= 10 }
    let perUnit = Int128(unit.nanoseconds)
    let total = wholeValue * perUnit + fractionValue * perUnit / scale
    guard total <= Int128(Int64.max) else { throw .tooLarge }
    self = .nanoseconds(Int64(total))
  }

  /// The duration written the way ``init(commandLineText:)`` reads it, in the largest unit that
  /// divides it evenly: `0`, `300ms`, `10s`, `10m`, `1h`; `1.5s` prints as `1500ms`, and a part of
  /// a millisecond as a decimal, e.g. `0.25ms`. Negative durations print with a leading `-`.
  var commandLineText: String {
    let nanoseconds = totalNanoseconds
    if nanoseconds == 0 { return "0" }
    let magnitude = nanoseconds.magnitude
    let sign = nanoseconds < 0 ? "-" : ""
    for unit in DurationUnit.allCases.reversed() where magnitude % UInt128(unit.nanoseconds) == 0 {
      return "\(sign)\(magnitude / UInt128(unit.nanoseconds))\(unit.rawValue)"
    }
    let perMillisecond = UInt128(DurationUnit.milliseconds.nanoseconds)
    var fraction = String(magnitude % perMillisecond)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(magnitude / perMillisecond).\(fraction)ms"
  }

  /// The whole duration in nanoseconds, rounded toward zero.
  private var totalNanoseconds: Int128 {
    let (seconds, attoseconds) = components
    return Int128(seconds) * 1_000_000_000 + Int128(attoseconds / 1_000_000_000)
  }

  /// Splits `12.5` into (`12`, `5`) and `7` into (`7`, ``); nil unless it is ASCII digits with at
  /// most one `.` that has digits on both sides.
  private static func splitDecimal(_ text: String) -> (whole: String, fraction: String)? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
    else { return nil }
    return (String(parts[0]), parts.count == 2 ? String(parts[1]) : "")
  }
}

extension Character {
  /// True for `0`…`9` only (not other scripts' digits, which `Int` would not parse).
  var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
