// Field values of generated items that need a fixed format: release dates, artwork URLs and the
// popularity score.
import Pipeline
import StreamsTesting

/// Formats the generated catalog's dates, URLs and scores.
enum CatalogFormat {
  /// A release day drawn for a generated item: a month, then a day of it (28 at most, so every
  /// month is valid without a calendar).
  static func releaseDay(_ random: inout SplitMix64) -> (month: Int, day: Int) {
    let month = random.within(1...12)
    let day = random.within(1...28)
    return (month, day)
  }

  /// A release date in the form every item keeps (`SearchItem.releaseDate`): "2014-10-27".
  static func releaseDate(year: Int, month: Int, day: Int) -> String {
    let digits = String(year)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-\(twoDigits(month))-\(twoDigits(day))"
  }

  /// An artwork URL of a square `size` in pixels.
  static func artwork(_ id: Int, size: Int) -> String {
    "https://catalog.invalid/artwork/\(id)/\(size)x\(size)bb.jpg"
  }

  /// A popularity from 0 to 899, most items low and few high as in real charts: the smaller of
  /// two uniform draws (a triangular distribution), scaled.
  static func popularity(_ random: inout SplitMix64) -> Int {
    min(random.below(1000), random.below(1000)) * 9 / 10
  }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
