// The offline search source: answers from an in-memory catalog (by default the built-in one),
// so the tool runs with no network, optionally after a simulated latency on an injected clock.
import Dispatch
import Pipeline
import Streams
import Synchronization

/// A `SearchSource` that answers from a fixed list of items, indexed at creation.
///
/// Useful as the default source (no network needed), in demos, and in tests that want real
/// matching without a server. Matching folds case, accents, "&"/"and" and numbers ("beyonce"
/// finds "Beyoncé", "frozen 2" finds "Frozen II"); query words match names at word starts,
/// never inside a word, or within a typo allowance that grows with their length ("metalica"
/// finds Metallica). Names that are or start with the query rank first, and typos only answer
/// when nothing matches without one (docs/catalog.md); see ``search(_:)``.
///
/// ```swift
/// let source = CatalogSource()  // the built-in catalog of real titles and names
/// let songs = try await source.search(SearchRequest(term: "metalica", category: .music))
/// ```
///
/// In tests, pass a few items and a `ManualClock` to see the latency in virtual time:
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let source = CatalogSource(items: items, latency: .milliseconds(80), clock: runner.clock)
/// let task = runner.start { try await source.search(request) }
/// runner.advance(to: .milliseconds(79))  // task.isFinished == false
/// runner.advance(to: .milliseconds(80))  // task.isFinished == true
/// ```
///
/// Copies share one index, so passing the source around costs nothing.
public struct CatalogSource: SearchSource {
  /// "catalog".
  public let name = "catalog"
  /// False: answers come from memory (events say `catalog`).
  public var isRemote: Bool { false }
  /// False: its latency, if any, is slept on its clock, never real I/O.
  public var performsRealIO: Bool { false }
  /// How long every answer is held back, to imitate a network service; zero answers at once.
  public let latency: Duration
  /// Nil for a source that never waits (the initialisers without a clock).
  private let clock: (any Clock<Duration>)?
  /// One index per category; items of no known category are left out.
  let indexes: [Category: CatalogIndex]
  /// The last term folded, asked again for each category of a search.
  let recentQuery = RecentQuery()

  /// A source answering at once from the built-in catalog: real films, songs, albums, podcasts
  /// and TV episodes (docs/catalog.md), about 30,000 items compiled into the binary.
  ///
  /// It never waits, so it needs no clock. The catalog's indexes are built ahead, when the
  /// catalog is generated, so creating the source reads and builds nothing.
  public init() {
    self.init(indexes: BuiltInCatalog.indexes, latency: .zero, clock: nil)
  }

  /// A source answering from the built-in catalog after `latency` measured on `clock`: pass
  /// `ContinuousClock()` to really wait, a `ManualClock` or a runner's clock in tests.
  public init(latency: Duration, clock: any Clock<Duration>) {
    self.init(indexes: BuiltInCatalog.indexes, latency: latency, clock: clock)
  }

  /// A source answering at once from `items`; it never waits, so it needs no clock.
  ///
  /// Builds the search index at once: about 30 ms for 12,000 items in a release build, half a
  /// second for 100,000. Items whose `kind`/`wrapperType` maps to no `Category` are never
  /// returned.
  public init(items: [SearchItem]) {
    self.init(store: SearchItemStore(items: items), latency: .zero, clock: nil)
  }

  /// A source answering from `items` after `latency` measured on `clock` (see
  /// ``init(items:)`` for the index).
  public init(items: [SearchItem], latency: Duration, clock: any Clock<Duration>) {
    self.init(store: SearchItemStore(items: items), latency: latency, clock: clock)
  }

  /// One index per category over the items of `store`, which the indexes share.
  /// With no clock, `latency` must be zero: nothing is ever waited for.
  init(store: any CatalogItemStore, latency: Duration, clock: (any Clock<Duration>)?) {
    var byCategory: [Category: [UInt32]] = [:]
    for position in 0..<store.count {
      if let category = store.category(at: position) {
        byCategory[category, default: []].append(UInt32(position))
      }
    }
    // The categories are indexed side by side: start-up is most of a short run's time.
    let categories = Array(byCategory)
    let names = store.foldedNames()
    // Index `n` is category bit `n` of the trie (fewer categories than `WordTrie.categoryLimit`):
    // each word is marked with the categories of the items whose names have it, the words each
    // index holds.
    var wordCategories = [UInt32](repeating: 0, count: names.words.count)
    for (number, (_, positions)) in categories.enumerated() {
      func mark(_ name: Int32) {
        guard name != CatalogItemNames.none else { return }
        for form in names.forms(ofName: name) {
          for word in names.words(ofForm: form) { wordCategories[Int(word)] |= 1 << number }
        }
      }
      for position in positions {
        let item = store.names(at: Int(position))
        mark(item.track)
        mark(item.collection)
        mark(item.artist)
      }
    }
    let typoSearch = CatalogTypoSearch(trie: WordTrie(words: names.words, categories: wordCategories))
    let built = Mutex<[Category: CatalogIndex]>([:])
    DispatchQueue.concurrentPerform(iterations: categories.count) { number in
      let (category, positions) = categories[number]
      let index = CatalogIndex(
        store: store, positions: positions, names: names,
        artistIsPrimary: CatalogRanking.artistIsPrimary(in: category), typoSearch: typoSearch,
        typoCategory: 1 << number)
      built.withLock { $0[category] = index }
    }
    self.init(indexes: built.withLock { $0 }, latency: latency, clock: clock)
  }

  /// A source answering from `indexes`, already built.
  init(indexes: [Category: CatalogIndex], latency: Duration, clock: (any Clock<Duration>)?) {
    self.indexes = indexes
    self.latency = latency
    self.clock = clock
  }

  /// The items of `request.category` matching `request.term`, at most `request.limit`, best
  /// first (an empty array for a limit below 1 or a term with no letters or digits).
  ///
  /// Query and names are compared word by word after folding (case, accents, "&"/"and",
  /// numbers); kana, CJK and full-width letters are kept as written except for case. The order
  /// is the catalog's one ranking rule, stated with examples in docs/catalog.md: exact names,
  /// then name prefixes, then word starts, typos only when nothing else matched; within a tier
  /// by `popularity`, then `id`.
  ///
  /// - Cancellation: throws `CancellationError` if the task is cancelled before the answer
  ///   is computed or while waiting out the latency.
  /// - Latency: with a non-zero `latency`, the answer is computed first, then held back for
  ///   `latency` on the clock; a zero latency never touches the clock.
  public func search(_ request: SearchRequest) async throws -> [SearchItem] {
    try await search(request, among: [request.category], waiting: true)
  }

  /// The answer, held back for `latency` when `waiting`, in a search of `categories` (which
  /// holds `request.category`).
  func search(_ request: SearchRequest, among categories: [Category], waiting: Bool) async throws -> [SearchItem] {
    try Task.checkCancellation()
    let answer =
      indexes[request.category]?.search(
        recentQuery.query(for: request.term), limit: request.limit, categories: typoCategories(of: categories)) ?? []
    if waiting { try await holdBack() }
    return answer
  }

  /// The categories (`CatalogIndex.typoCategory` bits) whose words the typo search walks for a
  /// search asking `categories`: those asked, no more, so that one walk serves them all and a
  /// search of one category reads only its own words' branches of the catalog's trie.
  func typoCategories(of categories: [Category]) -> UInt32 {
    categories.reduce(0) { $0 | (indexes[$1]?.typoCategory ?? 0) }
  }

  /// Waits `latency` on the clock; a zero latency never touches it.
  /// Whether a clock was given (without one, the latency is never waited for).
  var hasClock: Bool { clock != nil }

  func holdBack() async throws {
    if latency > .zero, let clock {
      try await clock.sleep(for: latency)
    }
  }
}
