// What processes share beside the memory cache: the answers any of them fetched, and the requests
// each budget recorded. One protocol with one implementation per backing store (an SQLite file for
// the processes of one machine, a Redis server for many machines); the rules that use it (time to
// live, the stale fallback, the budget's window) are stated once, outside every implementation.

/// Answers and request budgets shared by every process that uses the same backing store.
///
/// Useful as ``PipelineConfiguration/store``: a second process answers from what the first fetched
/// without a request, an expired answer is the fallback when the source fails, and one rate budget
/// holds over every process. `SQLiteStore` (SQLiteStorage) keeps them in one file for the processes of a machine.
///
/// An implementation stores and fetches; it decides nothing. Whether a stored answer is fresh
/// (`--cache-ttl`, on ``wallClock``), when an expired one is served, and when a budget has room
/// (a request holds its permit until a window after its answer) are decided by the pipeline,
/// the same for every implementation.
///
/// ## Failure
/// No requirement throws for a broken backing store: an implementation that cannot be used says so
/// once (through whatever its owner gave it to report with), reports ``status`` `off`, and from
/// then on misses every read, drops every write and answers budget calls with
/// ``SharedStoreFailure/off`` (the process then holds to its own `--rate-limit` alone). One that
/// is only busy (a lock another process holds, a server briefly away) answers budget calls with
/// ``SharedStoreFailure/busy``: the budget waits and asks again, and is never bypassed.
///
/// ## Threads
/// Every requirement may be called from any task, concurrently. `answer(for:)` and `reserve` may
/// suspend; `save`, `markUsed` and `finishRequest` return at once (the writing happens elsewhere).
public protocol SharedStore: AnyObject, Sendable {
  /// Whether the store is in use, still being opened, or off and why.
  var status: SharedStoreStatus { get }

  /// The calendar clock that answers and requests are stamped with: shared between processes
  /// and runs, so not the run's clock.
  var wallClock: any WallClock { get }

  /// The answer stored for `key`, however old, with the instant it was fetched; nil on a miss,
  /// when the store is off or not yet open, or when it cannot be read now.
  func answer(for key: StoreKey) async -> StoredAnswer?

  /// Hands `items`, fetched at `fetchedAt` (milliseconds since 1970 UTC), over to be stored for
  /// `key`, replacing what was there; returns at once. Eviction beyond the store's bounds is the
  /// implementation's (least recently used first).
  func save(_ items: [Category: [SearchItem]], fetchedAt: Int64, for key: StoreKey)

  /// Hands "the answer for `key` was used at `instant`" over, for the least-recently-used order;
  /// returns at once.
  func markUsed(_ key: StoreKey, at instant: Int64)

  /// Runs `decide` on the entries of budget `name` granted at or after `since` (those older may be
  /// forgotten), and records the entry it returns, if any, atomically with respect to every other
  /// process: no entry is recorded by anyone between the read and the write. Returns what
  /// `decide` returned.
  ///
  /// `decide` is pure and may run more than once (an implementation that retries on a conflict).
  ///
  /// - Throws: ``SharedStoreFailure/busy`` when the store cannot be reached now (ask again soon);
  ///   ``SharedStoreFailure/off`` when it never will.
  func reserve<Decision: Sendable>(
    inBudget name: String, since: Int64, _ decide: ([BudgetEntry]) -> (Decision, record: BudgetEntry?)
  ) async throws(SharedStoreFailure) -> Decision

  /// Hands "request `id` of budget `name` is over, counting from `endedAt`" over to be recorded;
  /// returns at once. Until it is recorded the entry holds its permit (so a late or lost record
  /// only makes others wait longer, at most the rule's lease).
  func finishRequest(_ id: String, inBudget name: String, endedAt: Int64)

  /// Turns the store off for the rest of the run, reporting once why, e.g. "it stayed busy for
  /// 30 s": from then on it behaves as a store that could not be opened.
  func turnOff(because reason: String)

  /// Returns once every answer handed over so far can be found by other processes and later runs
  /// (or was dropped, the store being off), with nothing another run needs left outside the store's
  /// main file: the SQLite store commits and folds its write-ahead log into `cache.sqlite`.
  func flush() async
}

/// Whether a ``SharedStore`` is in use.
public enum SharedStoreStatus: Sendable, Equatable {
  /// Answers are read and written, and budgets shared.
  case on
  /// Not usable yet (another process holds a lock it needs to open): reads miss, writes wait,
  /// budgets wait.
  case starting
  /// Not usable for this run; the reason is what was reported.
  case off(reason: String)
}

/// Why a budget call could not be answered.
public enum SharedStoreFailure: Error, Sendable, Equatable {
  /// Not now: another process holds a lock the call needs, or the store is still being opened.
  case busy
  /// Never, for this run: the store is off.
  case off
}
