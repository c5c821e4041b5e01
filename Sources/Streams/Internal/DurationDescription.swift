// One way every message of Streams and StreamsTesting writes a duration or an instant: whole
// milliseconds, grouped by thousands, as the package's recordings and events count time
// ("at_ms"). A unit that changed with the size ("749 ms" but "2.749 s") made messages hard to
// compare at a glance. Also a duration in whole nanoseconds, for Dispatch's deadlines.

extension Duration {
  /// The duration in milliseconds, as messages write it: "0 ms", "749 ms", "2,749 ms",
  /// "3,600,000 ms"; a fraction of a millisecond keeps up to three decimals ("0.25 ms").
  package var millisecondsDescription: String {
    let (seconds, attoseconds) = components
    let negative = seconds < 0 || attoseconds < 0
    let wholeSeconds = seconds.magnitude
    let attos = attoseconds.magnitude
    let whole = wholeSeconds * 1_000 + attos / 1_000_000_000_000_000
    // Thousandths of a millisecond, rounded to nearest.
    let fraction = (attos % 1_000_000_000_000_000 + 500_000_000_000) / 1_000_000_000_000
    var text = negative ? "-" : ""
    text += grouped(fraction == 1_000 ? whole + 1 : whole)
    if fraction != 0 && fraction != 1_000 {
      var digits = String(fraction)
      digits = String(repeating: "0", count: 3 - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text + " ms"
  }
}

/// `value` with a comma between groups of three digits: 3600000 is "3,600,000".
private func grouped(_ value: UInt64) -> String {
  let digits = Array(String(value))
  var text = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
    text.append(digit)
  }
  return text
}

extension Duration {
  /// The duration in whole nanoseconds, saturating.
  package var wholeNanoseconds: Int {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    return Int(clamping: scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue)
  }
}
