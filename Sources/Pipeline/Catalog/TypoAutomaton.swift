// The typo rule (`CatalogRanking.isTypo`) as an automaton read one letter at a time, so that a
// walk down the index's trie of words carries one small state per letter instead of a table
// per word.

/// The states of the Levenshtein automaton of one query word with transpositions, simulated
/// with bit masks (one bit per query position, one mask per number of typos).
///
/// Bit `j` of `matched[e]` is set when the letters read so far can be aligned with the first `j`
/// letters of the query using exactly `e` edits or fewer, the rows of the distance table that
/// `EditDistance` fills, kept as bits. A letter updates every mask with a few shifts and ANDs
/// (an edit moves a bit to the next mask), so a state costs the same for every word length.
/// The cells that `CatalogRanking.leadingTypos` rules out (two typos before the fourth letter)
/// are masked away, which also keeps the walk from trying every pair of first letters.
struct TypoAutomaton {
  /// One state: the masks per number of edits (0, 1, 2), and the transpositions half done.
  struct State {
    var matched0: UInt64
    var matched1: UInt64
    var matched2: UInt64
    /// Bit `j`: reading the query's letter `j + 1` first started a swap from `matched[e − 1]`;
    /// reading letter `j` next completes it at position `j + 2`.
    var swapping1: UInt64 = 0
    var swapping2: UInt64 = 0
  }

  /// The longest query word the masks hold (bits 0 … length, one more for the shifts).
  static let longestWord = 62

  private let length: Int
  /// The query's ASCII letters: bit `j` of `asciiMasks[c]` is set when letter `j` is `c`; 128
  /// masks owned by the caller of ``run(_:allowance:_:)``.
  private let asciiMasks: UnsafeMutablePointer<UInt64>
  /// The same for the query's other letters, few or none.
  private var otherMasks: [(letter: UInt32, mask: UInt64)] = []
  /// The bits a state may have per number of edits.
  private let allowed0: UInt64
  private let allowed1: UInt64
  private let allowed2: UInt64
  /// The bit of the whole query matched.
  private let whole: UInt64
  /// The query's positions: bits 0 … length − 1.
  private let positions: UInt64

  /// Runs `body` with the automaton of `query` allowing `allowance` (1 or 2) typos; nil for
  /// another allowance or a query longer than ``longestWord``.
  static func run<Result>(_ query: FoldedWord, allowance: Int, _ body: (TypoAutomaton) -> Result) -> Result? {
    guard (1...2).contains(allowance), !query.isEmpty, query.count <= longestWord else { return nil }
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 128) { masks in
      guard let base = masks.baseAddress else { return nil }
      base.initialize(repeating: 0, count: 128)
      return body(TypoAutomaton(query, allowance: allowance, masks: base))
    }
  }

  private init(_ query: FoldedWord, allowance: Int, masks: UnsafeMutablePointer<UInt64>) {
    length = query.count
    asciiMasks = masks
    for (position, letter) in query.enumerated() {
      let bit: UInt64 = 1 << UInt64(position)
      if letter < 128 {
        asciiMasks[Int(letter)] |= bit
      } else if let index = otherMasks.firstIndex(where: { $0.letter == letter }) {
        otherMasks[index].mask |= bit
      } else {
        otherMasks.append((letter, bit))
      }
    }
    let all: UInt64 = (1 << UInt64(length + 1)) - 1
    allowed0 = all
    allowed1 = all
    // Two edits only once the first `leadingLetters` letters are matched.
    let leading: UInt64 = (1 << UInt64(CatalogRanking.leadingLetters + 1)) - 1
    allowed2 = allowance == 2 ? all & ~(CatalogRanking.leadingTypos < 2 ? leading : 0) : 0
    whole = 1 << UInt64(length)
    positions = whole - 1
  }

  /// The state before any letter: the query's first `e` letters may be skipped with `e` edits.
  var start: State {
    State(matched0: 1 & allowed0, matched1: 0b11 & allowed1, matched2: 0b111 & allowed2)
  }

  /// The state after reading a letter whose mask (``mask(of:)``) is `equal` in `state`.
  @inline(__always)
  func reading(_ equal: UInt64, in state: State) -> State {
    // Per mask: a letter equal to the query's (same edits), any letter in the query's place
    // (substitution) or added (insertion) from one edit fewer, a swap completed, and query
    // letters skipped (deletion) after this letter, from the new mask one edit fewer.
    let next0 = ((state.matched0 & equal) << 1) & allowed0
    let next1 =
      (((state.matched1 & equal) << 1) | (state.matched0 << 1) | state.matched0 | ((state.swapping1 & equal) << 2)
        | (next0 << 1)) & allowed1
    let next2 =
      (((state.matched2 & equal) << 1) | (state.matched1 << 1) | state.matched1 | ((state.swapping2 & equal) << 2)
        | (next1 << 1)) & allowed2
    return State(
      matched0: next0, matched1: next1, matched2: next2, swapping1: state.matched0 & (equal >> 1),
      swapping2: state.matched1 & (equal >> 1))
  }

  /// Whether the letters read are within the allowance of the whole query.
  @inline(__always)
  func accepts(_ state: State) -> Bool {
    (state.matched0 | state.matched1 | state.matched2) & whole != 0
  }

  /// Whether no more letters can bring the state within the allowance.
  @inline(__always)
  func isDead(_ state: State) -> Bool {
    state.matched0 | state.matched1 | state.matched2 | state.swapping1 | state.swapping2 == 0
  }

  /// The query positions whose letters alone can keep `state` alive, when no edit can: then only
  /// a next letter whose mask shares a bit with this can. `~0` when an edit is still possible
  /// (any letter may follow). After a typo in the first letter, this leaves a walk one or two
  /// branches per node instead of every one.
  @inline(__always)
  func onlyLetters(after state: State) -> UInt64 {
    // An edit from a state at position j reaches j (insertion), j + 1 (substitution) or j + 2
    // (a swap) one mask up.
    let reach1 = allowed1 | allowed1 >> 1 | allowed1 >> 2
    let reach2 = allowed2 | allowed2 >> 1 | allowed2 >> 2
    guard state.matched0 & reach1 == 0, state.matched1 & reach2 == 0 else { return ~0 }
    return (state.matched0 | state.matched1 | state.matched2 | state.swapping1 | state.swapping2) & positions
  }

  /// The mask of `letter`: bit `j` set when the query's letter `j` is `letter`.
  @inline(__always)
  func mask(of letter: UInt32) -> UInt64 {
    if letter < 128 { return asciiMasks[Int(letter)] }
    for other in otherMasks where other.letter == letter { return other.mask }
    return 0
  }
}
