// The one form a release date takes: an ISO 8601 calendar date at the precision known, `YYYY-MM-DD`,
// `YYYY-MM` or `YYYY`. iTunes writes a date and a time (`2011-08-09T00:00:00Z`, or `07:00:00Z`
// for midnight in California), catalogs often only a year; one answer held both, and a reader had
// to parse two forms to compare them. An item takes the form when it is made, whatever it was made
// from (an iTunes answer, a catalog file, a stored answer of an earlier version), so the events,
// the stores and every view read one form.

extension SearchItem {
  /// The year of release, when the release date is known: `releaseDate`'s year, as a number
  /// (written as `release_year` in events, for `jq` to compare).
  public var releaseYear: Int? {
    if storage == nil { return builtIn.releaseYear }
    return releaseDate.flatMap(ReleaseDate.year)
  }
}

/// Reads release dates into their one form.
enum ReleaseDate {
  /// `text` as `YYYY-MM-DD`, `YYYY-MM` or `YYYY`: a date with a time (`2011-08-09T00:00:00Z`)
  /// keeps its date, exactly as written (the time of a release day carries nothing a reader
  /// needs, and iTunes writes the day's midnight in the store's zone as UTC); nil for nil and for
  /// anything that is not such a date (an impossible day, a year 0, another layout), which no
  /// reader of the form could use.
  static func normalized(_ text: String?) -> String? {
    guard var text else { return nil }
    var utf8 = text.utf8
    if utf8.count > 10, let separator = utf8.dropFirst(10).first, separator == UInt8(ascii: "T") {
      text = String(decoding: utf8.prefix(10), as: UTF8.self)
      utf8 = text.utf8
    }
    return isCalendarDate(utf8) ? text : nil
  }

  /// The year of a date in the one form.
  static func year(of date: String) -> Int? {
    number(date.utf8.prefix(4))
  }

  /// Whether `bytes` are `YYYY`, `YYYY-MM` or `YYYY-MM-DD` naming a real day, month or year
  /// (from 0001).
  private static func isCalendarDate(_ bytes: String.UTF8View) -> Bool {
    guard bytes.count == 4 || bytes.count == 7 || bytes.count == 10,
      let year = number(bytes.prefix(4)), year > 0
    else { return false }
    guard bytes.count > 4 else { return true }
    let parts = Array(bytes)
    guard parts[4] == UInt8(ascii: "-"), let month = number(parts[5..<7]), (1...12).contains(month) else {
      return false
    }
    guard parts.count > 7 else { return true }
    guard parts[7] == UInt8(ascii: "-"), let day = number(parts[8..<10]) else { return false }
    return day >= 1 && day <= days(inMonth: month, of: year)
  }

  /// The decimal number `digits` spell, nil unless every one is a digit.
  private static func number<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return value
  }

  /// How many days `month` (1–12) of `year` has, in the Gregorian calendar.
  private static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
