// The benchmark's output: one row per figure, printed as an aligned table or as JSON.
import Foundation

/// One measured figure, with the target and the anchor it is compared with.
struct ResultRow: Sendable, Codable {
  var section: String
  var name: String
  var unit: String
  /// Nil when the figure could not be measured; `note` says why.
  var sample: Sample?
  var target: String = ""
  var anchor: String = ""
  var note: String = ""
}

extension ResultRow {
  /// "yes" or "NO": whether the median meets a target that bounds it ("≤ 40", "< 100",
  /// "≥ 1,000,000"; after ", " a remark); nil without a figure or such a target ("≥ 1.5 × jq").
  var verdict: String? {
    guard let median = sample?.median else { return nil }
    let characters = Array(target)
    guard characters.count >= 3, characters[1] == " " else { return nil }
    var end = 2
    var digits = ""
    while end < characters.count {
      let character = characters[end]
      if character.isNumber || character == "." {
        digits.append(character)
      } else if character == ",", end + 1 < characters.count, characters[end + 1].isNumber {
        // A thousands separator; a comma before a space starts the remark.
      } else {
        break
      }
      end += 1
    }
    guard let limit = Double(digits), end == characters.count || characters[end] == "," else { return nil }
    let met: Bool
    switch characters[0] {
    case "≤": met = median <= limit
    case "<": met = median < limit
    case "≥": met = median >= limit
    case ">": met = median > limit
    default: return nil
    }
    return met ? "yes" : "NO"
  }
}

/// Collects rows and renders them.
struct ResultTable {
  private(set) var rows: [ResultRow] = []

  mutating func append(_ row: ResultRow) { rows.append(row) }

  /// Rows as an aligned text table.
  func text() -> String {
    let header = ["section", "measurement", "median", "min", "max", "unit", "target", "met", "anchor / note"]
    var lines = [header]
    for row in rows {
      let figures = row.sample.map { [format($0.median), format($0.min), format($0.max)] } ?? ["—", "—", "—"]
      let remark = [row.anchor, row.note].filter { !$0.isEmpty }.joined(separator: "; ")
      lines.append([row.section, row.name] + figures + [row.unit, row.target, row.verdict ?? "", remark])
    }
    var widths = [Int](repeating: 0, count: header.count)
    for line in lines {
      for (index, cell) in line.enumerated() { widths[index] = Swift.max(widths[index], cell.count) }
    }
    let rightAligned: Set<Int> = [2, 3, 4]
    return lines.map { line in
      line.enumerated().map { index, cell in
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        return rightAligned.contains(index) ? padding + cell : cell + padding
      }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
  }

  /// Rows as a JSON array.
  func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(rows), as: UTF8.self)
  }

  private func format(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())).withThousandsSeparators }
    return String(format: "%.2f", value)
  }
}

extension String {
  /// "1234567" as "1,234,567".
  var withThousandsSeparators: String {
    let digits = Array(self)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0, digits[index - 1] != "-" { result.append(",") }
      result.append(digit)
    }
    return result
  }
}
