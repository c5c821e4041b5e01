// Turns option values from text into checked values, with the reason to show when they are wrong.
import Foundation
import Pipeline

/// Parsers for the kinds of value options take; each throws ``InvalidValue`` saying what was
/// expected.
enum ValueParser {
  /// A whole number in `range`; an upper bound of `Int.max` is shown as "at least".
  static func wholeNumber(_ text: String, in range: ClosedRange<Int>) throws(InvalidValue) -> Int {
    guard text.allSatisfy(\.isASCIIDigit), let number = Int(text), range.contains(number) else {
      let expected =
        range.upperBound == Int.max
        ? "expected a whole number of at least \(range.lowerBound)"
        : "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
      throw InvalidValue(reason: expected)
    }
    return number
  }

  /// A size in bytes: a whole number of at least 1, optionally with K, M or G (powers of 1024).
  static func byteCount(_ text: String) throws(InvalidValue) -> Int {
    let units = Dictionary(uniqueKeysWithValues: byteUnits)
    let unit = text.last.flatMap { units[Character($0.uppercased())] }
    let digits = unit == nil ? Substring(text) : text.dropLast()
    guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let number = Int(digits), number >= 1,
      number <= Int.max / (unit ?? 1)
    else { throw InvalidValue(reason: "expected a size in bytes such as 500000, 512K, 64M or 1G") }
    return number * (unit ?? 1)
  }

  /// `count` as ``byteCount(_:)`` reads it, in the largest unit that divides it: `64M`, `512K`, `1000`.
  static func byteCountText(_ count: Int) -> String {
    for (unit, size) in byteUnits.reversed() where count >= size && count % size == 0 {
      return "\(count / size)\(unit)"
    }
    return String(count)
  }

  /// The size suffixes ``byteCount(_:)`` takes, smallest first.
  private static let byteUnits: [(Character, Int)] = [("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30)]

  /// A duration such as `300ms`; `exampleUnit` completes the hint for a bare number (`300` →
  /// "add a unit, e.g. 300ms"). With `positive`, zero is refused.
  static func duration(
    _ text: String, exampleUnit: DurationUnit, positive: Bool = false
  ) throws(InvalidValue) -> Duration {
    let duration: Duration
    do throws(DurationSyntaxError) {
      duration = try Duration(commandLineText: text)
    } catch .missingUnit(let number) {
      throw InvalidValue(reason: "add a unit, e.g. \(number)\(exampleUnit.rawValue)")
    } catch .tooLarge {
      throw InvalidValue(reason: "expected a duration under 292 years")
    } catch {
      throw InvalidValue(reason: "expected a duration such as 300ms, 1.5s, 2m or 1h")
    }
    if positive, duration == .zero {
      throw InvalidValue(reason: "expected a duration greater than 0")
    }
    return duration
  }

  /// `catalog`, `itunes`, or an http(s) URL with a host.
  static func source(_ text: String) throws(InvalidValue) -> CommandLineOptions.Source {
    switch text.lowercased() {
    case "catalog": return .catalog
    case "itunes": return .itunes
    default:
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
        ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty
      else { throw InvalidValue(reason: "expected catalog, itunes, or an http(s) URL with a host") }
      // The tool writes every parameter itself; one already in the URL would be sent beside ours
      // and could change which term the server answers for.
      guard url.query == nil, url.fragment == nil, !text.contains("?"), !text.contains("#") else {
        throw InvalidValue(reason: "the URL must have no query or fragment; the tool adds term, media and limit itself")
      }
      return .url(url)
    }
  }

  /// A comma-separated list of category names (see `Category(name:)`), without repeats.
  static func categories(_ text: String) throws(InvalidValue) -> [Category] {
    var categories: [Category] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let category = Category(name: String(name)) else {
        let known = Category.allCases.map(\.rawValue).joined(separator: ", ")
        let problem = name.isEmpty ? "empty category name" : "unknown category '\(name)'"
        throw InvalidValue(reason: "\(problem); expected a comma-separated list of \(known)")
      }
      if !categories.contains(category) { categories.append(category) }
    }
    return categories
  }

  /// Two ASCII letters, returned uppercased.
  static func country(_ text: String) throws(InvalidValue) -> String {
    guard text.count == 2, text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      throw InvalidValue(reason: "expected a two-letter country code, e.g. US")
    }
    return text.uppercased()
  }

  /// `none`, or a rate such as `20/min`.
  static func rateLimit(_ text: String) throws(InvalidValue) -> OptionDraft.RateLimitChoice {
    if text == "none" { return .unlimited }
    do {
      return .limited(try RateLimit(commandLineText: text))
    } catch {
      throw InvalidValue(reason: "expected a rate such as 20/min, 5/s, 100/h or 20/60s, or none")
    }
  }

  /// One of `choices`' raw values.
  static func choice<Choice: CaseIterable & RawRepresentable>(
    _ text: String, of choices: Choice.Type
  ) throws(InvalidValue) -> Choice where Choice.RawValue == String {
    guard let choice = Choice(rawValue: text) else {
      let names = Choice.allCases.map(\.rawValue)
      let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
      throw InvalidValue(reason: "expected \(list)")
    }
    return choice
  }
}
