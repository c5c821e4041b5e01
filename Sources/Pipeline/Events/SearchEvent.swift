// What the pipeline emits: one value per thing that happened, in emission order. The wire form is
// written by `JSONLinesEncoder` and documented in docs/events.md; people read `PrettyEventFormatter`.

/// One thing the pipeline reports: a search started, its results, a clear, a cancellation, a
/// failure, a bad input line, or the summary at the end of a run.
///
/// Events of one run are numbered by `seq` (1, 2, 3…) in the order the pipeline emits them, and
/// stamped with `atMilliseconds` since the start of the run on the pipeline's clock, so a run in
/// virtual time produces the same events every time.
public struct SearchEvent: Sendable, Equatable {
  /// 1, 2, 3… per run, assigned by the pipeline in emission order.
  public var seq: Int
  /// Milliseconds since the start of the run, on the pipeline's clock.
  public var atMilliseconds: Int64
  /// The session the input line named; nil when it named none.
  public var session: String?
  /// The number of the input line the event is about: the keystroke whose term was searched
  /// (`search`, and the `waiting`, `partial`, `results`, `error` or `cancelled` of that search),
  /// the keystroke that cleared the field (`cleared`), or the bad line (`input_error`); nil for
  /// the summary. Every keystroke of the session up to that line is accounted for by then: an
  /// earlier one was superseded while the quiet period ran, or searched before.
  ///
  /// Not part of the JSON Lines output. Useful to a program that must map events back to its
  /// input, e.g. to acknowledge the keystrokes a search's end covers.
  public var inputLine: Int?
  /// What happened.
  public var kind: Kind

  /// Creates an event.
  public init(seq: Int, atMilliseconds: Int64, session: String? = nil, inputLine: Int? = nil, kind: Kind) {
    self.seq = seq
    self.atMilliseconds = atMilliseconds
    self.session = session
    self.inputLine = inputLine
    self.kind = kind
  }

  /// What happened, with the data of each kind.
  public enum Kind: Sendable, Equatable {
    /// A term passed the debounce and the distinct check: a search for it started.
    case search(term: String)
    /// The search for `term` finished; `categories` in the order they were asked for, each with
    /// its items or its failure; `elapsedMilliseconds` from the `search` event to this one.
    case results(term: String, source: ResultSource, categories: [CategoryResult], elapsedMilliseconds: Int64)
    /// Progressive mode only: one category of the search for `term` has answered; the other
    /// categories may follow, and `results` (or `error`) still ends the search.
    case partial(term: String, category: CategoryResult)
    /// A request of the search for `term`, for `category` (`all` for one request covering every
    /// category), waits for the rate budget; it is sent in about `waitMilliseconds` unless the
    /// search ends first. The search still ends with exactly one `results`, `error` or `cancelled`.
    case waiting(term: String, category: String, waitMilliseconds: Int64)
    /// The field was cleared (nothing but whitespace).
    case cleared
    /// The search for `term` was abandoned before its results, for `reason`.
    case cancelled(term: String, reason: CancelReason)
    /// Every category of the search for `term` failed; `error` is the first category's failure.
    case error(term: String, error: SearchError)
    /// Input line `line` (1-based) could not be read, for `reason`; the run goes on.
    case inputError(line: Int, reason: String)
    /// The counts of the whole run; the last event.
    case summary(RunSummary)
  }

  /// The term the event concerns, for `search`, `results`, `partial`, `waiting`, `cancelled` and
  /// `error`; else nil.
  public var term: String? {
    switch kind {
    case .search(let term), .results(let term, _, _, _), .partial(let term, _), .cancelled(let term, _),
      .error(let term, _), .waiting(let term, _, _):
      term
    case .cleared, .inputError, .summary: nil
    }
  }

  /// The wire name of the kind: search, results, partial, waiting, cleared, cancelled, error,
  /// input_error, summary.
  public var typeName: String {
    switch kind {
    case .search: "search"
    case .results: "results"
    case .partial: "partial"
    case .waiting: "waiting"
    case .cleared: "cleared"
    case .cancelled: "cancelled"
    case .error: "error"
    case .inputError: "input_error"
    case .summary: "summary"
    }
  }
}

/// How a search's results were obtained, over all its categories: `load` if any category started
/// a load, else `joined` if any waited for a load another search had started, else `cache`.
public enum ResultSource: String, Sendable, Hashable, CaseIterable {
  /// Answered from memory at once.
  case cache
  /// A load was started for it.
  case load
  /// It waited for a load that another search (or session) had started.
  case joined
}

/// One category's part of a search's results: its items, or why it has none.
public struct CategoryResult: Sendable, Equatable {
  /// The category asked for.
  public var category: Category
  /// Its items and where they came from, or its failure.
  public var outcome: Outcome

  /// Creates a category result.
  public init(category: Category, outcome: Outcome) {
    self.category = category
    self.outcome = outcome
  }

  /// A category's items or its failure.
  public enum Outcome: Sendable, Equatable {
    /// The items, best first, and where they came from.
    case items([SearchItem], from: ItemOrigin)
    /// The category's request failed.
    case failed(SearchError)
  }
}

/// Where one category's items came from.
public enum ItemOrigin: String, Sendable, Hashable, CaseIterable {
  /// The cache of earlier answers.
  case cache
  /// The disk tier (`--cache-dir`): an answer an earlier run, or another process, fetched.
  case disk
  /// The iTunes Search API (or another HTTP server).
  case network
  /// The offline catalog.
  case catalog
  /// An earlier answer past its time to live (`--cache-ttl`), served because asking the source
  /// again failed: better an old answer than none while the service is unreachable.
  case stale
}

/// Why a search was abandoned.
public enum CancelReason: String, Sendable, Hashable, CaseIterable {
  /// A newer term replaced it.
  case superseded
  /// The field was cleared.
  case cleared
  /// The run ended (input closed with a shutdown, or the process was interrupted).
  case shutdown
}

/// The counts of a whole run, reported in the last event.
public struct RunSummary: Sendable, Equatable {
  /// Input lines read, valid or not.
  public var inputLines: Int
  /// Input lines that could not be read.
  public var inputErrors: Int
  /// `search` events.
  public var searches: Int
  /// `results` events.
  public var results: Int
  /// `error` events.
  public var errors: Int
  /// `cancelled` events.
  public var cancellations: Int
  /// Requests sent to the source (one per category per load).
  public var requests: Int
  /// Category answers taken from the cache.
  public var cacheHits: Int
  /// Category answers taken from the disk tier.
  public var diskHits: Int
  /// Whether the run had a disk tier and whether it stayed on; nil without one (the catalog,
  /// `--cache-dir none`), and then the summary leaves the disk fields out.
  public var diskTier: DiskTierStatus?

  /// Creates a summary; every count defaults to zero.
  public init(
    inputLines: Int = 0, inputErrors: Int = 0, searches: Int = 0, results: Int = 0, errors: Int = 0,
    cancellations: Int = 0, requests: Int = 0, cacheHits: Int = 0, diskHits: Int = 0,
    diskTier: DiskTierStatus? = nil
  ) {
    self.inputLines = inputLines
    self.inputErrors = inputErrors
    self.searches = searches
    self.results = results
    self.errors = errors
    self.cancellations = cancellations
    self.requests = requests
    self.cacheHits = cacheHits
    self.diskHits = diskHits
    self.diskTier = diskTier
  }
}
