// The typo rule (`CatalogRanking.isTypo`) as an automaton read one letter at a time, so that a
// walk down the index's trie of words carries one small state per letter instead of a table
// per word.
import Pipeline

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
  private let allowance: Int
  /// The query's ASCII letters: bit `j` of `asciiMasks[c]` is set when letter `j` is `c`.
  private let asciiMasks: UnsafeMutablePointer<UInt64>
  /// The same for the query's other letters, few or none.
  private var otherMasks: [(letter: UInt32, mask: UInt64)] = []
  /// Per query position, its letter's bit in a trie's letter sets (`WordTrie.letterBit`).
  private let positionBits: UnsafeMutablePointer<UInt64>
  /// Per distinct letter bit of the query: the bit, then the positions of the letters that have
  /// it (`letterBitCount` pairs).
  private let letterBitPositions: UnsafeMutablePointer<UInt64>
  private let letterBitCount: Int
  /// The letter bits of all the query's letters.
  private let queryLetters: UInt64
  /// The bits a state may have per number of edits.
  private let allowed0: UInt64
  private let allowed1: UInt64
  private let allowed2: UInt64
  /// The bit of the whole query matched.
  private let whole: UInt64
  /// The query's positions: bits 0 … length − 1.
  private let positions: UInt64

  /// Whether an automaton can be made for `query` with `allowance`: one or two edits, and a
  /// query of 1 to ``longestWord`` letters. Other queries have no typo matches.
  static func handles(_ query: FoldedWord, allowance: Int) -> Bool {
    (1...2).contains(allowance) && !query.isEmpty && query.count <= longestWord
  }

  /// Runs `body` with the automaton of `query` allowing `allowance` (1 or 2) typos; nil for
  /// another allowance or a query longer than ``longestWord``.
  static func run<Result>(_ query: FoldedWord, allowance: Int, _ body: (TypoAutomaton) -> Result) -> Result? {
    guard handles(query, allowance: allowance) else { return nil }
    // 128 ASCII masks, then per position a letter bit and up to a (bit, positions) pair.
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 128 + 3 * longestWord) { memory in
      guard let base = memory.baseAddress else { return nil }
      base.initialize(repeating: 0, count: 128)
      return body(TypoAutomaton(query, allowance: allowance, memory: base))
    }
  }

  private init(_ query: FoldedWord, allowance: Int, memory: UnsafeMutablePointer<UInt64>) {
    length = query.count
    self.allowance = allowance
    asciiMasks = memory
    positionBits = memory + 128
    letterBitPositions = memory + 128 + Self.longestWord
    var letterBitCount = 0
    for (position, letter) in query.enumerated() {
      let bit: UInt64 = 1 << UInt64(position)
      if letter < 128 {
        asciiMasks[Int(letter)] |= bit
      } else if let index = otherMasks.firstIndex(where: { $0.letter == letter }) {
        otherMasks[index].mask |= bit
      } else {
        otherMasks.append((letter, bit))
      }
      let letterBit = WordTrie.letterBit(letter)
      positionBits[position] = letterBit
      var pair = 0
      while pair < letterBitCount && letterBitPositions[2 * pair] != letterBit { pair += 1 }
      if pair == letterBitCount {
        letterBitPositions[2 * pair] = letterBit
        letterBitPositions[2 * pair + 1] = 0
        letterBitCount += 1
      }
      letterBitPositions[2 * pair + 1] |= bit
    }
    self.letterBitCount = letterBitCount
    var queryLetters: UInt64 = 0
    for pair in 0..<letterBitCount { queryLetters |= letterBitPositions[2 * pair] }
    self.queryLetters = queryLetters
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

  /// The query positions whose letters are the only ones that can still bring `state` within
  /// the allowance, when no edit can be made on the next letter; `~0` when one can (then any
  /// letter may follow). A letter whose mask (``mask(of:)``) shares no bit with this leaves a
  /// state that no letters can bring within the allowance.
  @inline(__always)
  func usefulLetters(after state: State) -> UInt64 {
    // An insertion or substitution on the next letter, whatever it is.
    let edit1 = (state.matched0 << 1 | state.matched0) & allowed1
    let edit2 = (state.matched1 << 1 | state.matched1 | edit1 << 1) & allowed2
    guard edit1 | edit2 == 0 else { return ~0 }
    // Otherwise: a query letter read as is, a swap completed, or a swap started whose end is
    // allowed (the positions of its two letters are `j + 1`, then `j`).
    let completing = state.swapping1 & allowed1 >> 2 | state.swapping2 & allowed2 >> 2
    let swapStarts = (state.matched1 & allowed2 >> 2) << 1
    return (state.matched1 | state.matched2 | completing | swapStarts) & positions
  }

  /// The letter bits (`WordTrie.letterBit`) of the query's letters at `positions`.
  @inline(__always)
  func letterBits(at positions: UInt64) -> UInt64 {
    var bits: UInt64 = 0
    var rest = positions
    while rest != 0 {
      bits |= positionBits[rest.trailingZeroBitCount]
      rest &= rest &- 1
    }
    return bits
  }

  /// False when no letters all among `letters` (letter bits, a branch's letter set) can bring
  /// `state` within the allowance: every remaining query letter missing from them costs an edit,
  /// and more are missing than there are edits left.
  @inline(__always)
  func canContinue(_ state: State, within letters: UInt64) -> Bool {
    guard letters & queryLetters != queryLetters else { return true }
    var missing: UInt64 = 0
    for pair in 0..<letterBitCount {
      // All ones when the letter is missing, without a branch: its bit is a single one.
      let absent = 0 &- ((letterBitPositions[2 * pair] & letters) &- 1) >> 63
      missing |= letterBitPositions[2 * pair + 1] & absent
    }
    guard missing != 0 else { return true }
    // With `e` edits made, the furthest position reached leaves the fewest letters to match; a
    // swap half done continues two positions on.
    @inline(__always) func fits(_ reached: UInt64, skipping: UInt64, edits: Int) -> Bool {
      guard reached != 0, edits <= allowance else { return false }
      var rest = missing >> (UInt64(63 - reached.leadingZeroBitCount) + skipping)
      if edits < allowance { rest &= rest &- 1 }
      if edits + 1 < allowance { rest &= rest &- 1 }
      return rest == 0
    }
    return fits(state.matched0, skipping: 0, edits: 0) || fits(state.matched1, skipping: 0, edits: 1)
      || fits(state.matched2, skipping: 0, edits: 2) || fits(state.swapping1, skipping: 2, edits: 1)
      || fits(state.swapping2, skipping: 2, edits: 2)
  }

  /// The mask of `letter`: bit `j` set when the query's letter `j` is `letter`.
  @inline(__always)
  func mask(of letter: UInt32) -> UInt64 {
    if letter < 128 { return asciiMasks[Int(letter)] }
    for other in otherMasks where other.letter == letter { return other.mask }
    return 0
  }
}
