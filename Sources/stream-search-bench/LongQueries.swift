// The long queries the benchmark types: 300 names of three words or more, taken from the built-in
// catalog itself (so every query has an answer to find), every third with a typo in its last word,
// the kind of query where respellings, typo tiers and partial answers all run on each keystroke.
// Made the same way on every run: the names are read in catalog order at a fixed stride and the
// typos are placed by rule, never at random.
import Catalog
import Pipeline

/// The benchmark's set of long multi-word queries.
enum LongQueries {
  /// How many queries the set holds.
  static let count = 300

  /// The queries, as a person types them: lower case, single spaces.
  static func terms() -> [String] {
    let items = CatalogSource.builtInItems
    var names: [String] = []
    var seen: Set<String> = []
    // A prime stride walks the whole catalog (popular items first, obscure ones last) and mixes
    // the categories, instead of reading the first few hundred songs.
    var position = 0
    for _ in 0..<items.count where names.count < count {
      position = (position + 101) % items.count
      let item = items[position]
      guard let name = (item.trackName ?? item.collectionName).map(Self.typed), Self.isLong(name),
        seen.insert(name).inserted
      else { continue }
      names.append(name)
    }
    return names.enumerated().map { number, name in number % 3 == 2 ? Self.withTypo(name, kind: number / 3) : name }
  }

  /// A name as typed: lower case, words of letters and digits separated by one space.
  static func typed(_ name: String) -> String {
    name.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'") }.joined(separator: " ")
  }

  /// Three words or more, the last of four letters or more (room for a typo), and not so long
  /// that one name's prefixes dominate the set.
  static func isLong(_ name: String) -> Bool {
    let words = name.split(separator: " ")
    return words.count >= 3 && (words.last?.count ?? 0) >= 4 && name.count <= 48
      && name.unicodeScalars.allSatisfy(\.isASCII)
  }

  /// `name` with one typo in its last word, after its first letter: two neighbouring letters
  /// swapped, one dropped, or one doubled, in turn by `kind`.
  static func withTypo(_ name: String, kind: Int) -> String {
    var words = name.split(separator: " ").map { Array($0) }
    var last = words[words.count - 1]
    let at = min(2, last.count - 2)
    switch kind % 3 {
    case 0: last.swapAt(at, at + 1)
    case 1: last.remove(at: at)
    default: last.insert(last[at], at: at)
    }
    words[words.count - 1] = last
    return words.map { String($0) }.joined(separator: " ")
  }
}
