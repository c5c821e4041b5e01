// The shared store in one SQLite file, `DIRECTORY/cache.sqlite`, for every run and process on a
// machine that uses the same directory: the disk tier (L2) of the answer cache, and the requests
// of each rate budget.
import Foundation
import Pipeline
import Synchronization

/// Answers kept on disk across runs, and the requests of each rate budget, in
/// `DIRECTORY/cache.sqlite`: the `SharedStore` of the processes of one machine.
///
/// Useful behind the memory cache for a network source: a second run answers from disk without a
/// request, and an expired answer is there to serve when the source fails.
///
/// ```swift
/// let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-search-example").path
/// let (warnings, warn) = AsyncStream.makeStream(of: String.self)  // shown to the user
/// let store = SQLiteStore.open(directory: directory, wallClock: SystemWallClock()) { line in
///   warn.yield("Warning: \(line)")
/// }
/// var configuration = PipelineConfiguration()
/// configuration.store = store
/// ```
///
/// - Opening: the file is checked before anything is written to it (its header read without
///   SQLite, or read-only); one that is not ours, or a newer version, is left byte for byte as it
///   was, and the store is off.
/// - Reads run on the caller's task on a connection of their own and take tens of microseconds
///   (WAL mode: never blocked by another process's writes).
/// - Writes are handed to a writer thread (a `StoreWriter`) and committed in short batches;
///   eviction (least recently used, over ``capacity`` answers or ``maxBytes``) runs there too.
///   ``flush()`` also folds the write-ahead log into the file, so `cache.sqlite` alone holds it all.
/// - Budgets run on connections of their own that never wait inside SQLite: a busy lock is
///   reported as `SharedStoreFailure.busy` and the budget asks again, so no task blocks a thread.
/// - Failure: SQLite's runtime library missing, a file that cannot be used (not a database,
///   damaged, foreign, newer, read-only), a full disk or a directory that cannot be created turns
///   the store off: `report` gets one line saying why, ``status`` says `off`, and every call
///   afterwards does nothing.
/// - Busy at start: when another process holds a lock for longer than the busy timeout (2 s)
///   while the store opens, it is `SharedStoreStatus.starting`: reads miss, writes wait, budgets
///   wait; it tries again whenever it is used, and is turned off if still locked after 30 s.
public final class SQLiteStore: SharedStore {
  /// The name the store had before there were others.
  public typealias Status = SharedStoreStatus

  /// The name of the file in the cache directory.
  public static let fileName = "cache.sqlite"
  /// The ``maxBytes`` of a store opened without one: 64 MiB.
  public static let defaultMaxBytes = 64 << 20
  /// How long a read or a write waits for another process's lock, in milliseconds.
  static let busyTimeout: Int32 = 2_000
  /// How long the store may stay `SharedStoreStatus.starting` before it is turned off.
  static let startingPatience: Int64 = 30_000
  /// How often a starting store tries to open again, at most.
  static let startingRetry: Int64 = 20

  /// Most answers kept; the least recently used beyond are evicted.
  public let capacity: Int
  /// Most bytes of answers kept (their encoded items); the least recently used beyond are evicted.
  public let maxBytes: Int
  /// The clock answers and requests are stamped with.
  public let wallClock: any WallClock
  let path: String
  let readers: ConnectionPool
  let budgets: ConnectionPool
  let writer: StoreWriter
  let report: @Sendable (String) -> Void
  let state: Mutex<State>

  struct State {
    var status: SharedStoreStatus
    /// When the store was first found locked at start.
    var startingSince: Int64 = 0
    /// When it last tried to open, and whether a caller is trying now.
    var lastAttempt: Int64 = 0
    var attempting = false
    /// Between the status turning off and the line that says why; flushes wait meanwhile.
    var turningOff = false
    var turnOffWaiters: [CheckedContinuation<Void, Never>] = []
  }

  /// Opens (creating if needed) `directory/cache.sqlite`. Never throws: a store that cannot be
  /// used is returned off, after `report` was told why in one line.
  ///
  /// - Parameters:
  ///   - directory: the folder that holds `cache.sqlite`; created when missing.
  ///   - capacity: most answers kept (`--cache-size`); by default the memory cache's default.
  ///   - maxBytes: most bytes of encoded answers kept.
  ///   - wallClock: stamps answers and requests.
  ///   - report: told once, in one line, when the store goes off.
  public static func open(
    directory: String, capacity: Int = PipelineConfiguration().cacheCapacity, maxBytes: Int = defaultMaxBytes,
    wallClock: any WallClock = SystemWallClock(),
    report: @escaping @Sendable (String) -> Void
  ) -> SQLiteStore {
    open(
      directory: directory, capacity: capacity, maxBytes: maxBytes, wallClock: wallClock,
      writerBusyTimeout: busyTimeout, report: report)
  }

  /// ``open(directory:capacity:maxBytes:wallClock:report:)`` with the writer waiting up to
  /// `writerBusyTimeout` ms for a lock: a test that holds the file's lock makes it long, so the
  /// write it stalls is still waiting however slowly the machine runs.
  static func open(
    directory: String, capacity: Int = PipelineConfiguration().cacheCapacity, maxBytes: Int = defaultMaxBytes,
    wallClock: any WallClock = SystemWallClock(),
    writerBusyTimeout: Int32, report: @escaping @Sendable (String) -> Void
  ) -> SQLiteStore {
    let path = (directory as NSString).appendingPathComponent(fileName)
    let status: SharedStoreStatus
    if case .failure(let missing) = SQLiteLibrary.shared {
      status = .off(reason: missing.description)
    } else if let failure = makeDirectory(directory) {
      status = .off(reason: "cannot create the directory \(directory): \(failure)")
    } else {
      do throws(StoreOpenError) {
        try StoreFile.prepare(path: path, busyTimeout: busyTimeout)
        status = .on
      } catch {
        status = Self.status(after: error, path: path)
      }
    }
    let store = SQLiteStore(
      path: path, writer: StoreWriter(path: path, busyTimeout: writerBusyTimeout), capacity: capacity,
      maxBytes: maxBytes, wallClock: wallClock, report: report, status: status)
    switch status {
    case .on: store.writer.start(store: store)
    case .starting: break
    case .off(let reason):
      store.writer.stop()
      report(offLine(reason))
    }
    return store
  }

  private init(
    path: String, writer: StoreWriter, capacity: Int, maxBytes: Int, wallClock: any WallClock,
    report: @escaping @Sendable (String) -> Void, status: SharedStoreStatus
  ) {
    self.path = path
    self.writer = writer
    self.capacity = max(1, capacity)
    self.maxBytes = max(1, maxBytes)
    self.wallClock = wallClock
    self.report = report
    let now = wallClock.millisecondsSinceEpoch
    state = Mutex(State(status: status, startingSince: now, lastAttempt: now))
    readers = ConnectionPool(path: path, busyTimeout: Self.busyTimeout)
    // A budget's statements never wait inside SQLite: the budget waits on its clock instead.
    budgets = ConnectionPool(path: path, busyTimeout: 0)
  }

  /// Whether the store is in use, still opening, or off and why.
  public var status: SharedStoreStatus { state.withLock { $0.status } }

  /// The answer stored for `key`, however old, and when it was fetched; nil on a miss, while
  /// the store is off or starting, or when another process holds the file too long.
  public func answer(for key: StoreKey) async -> StoredAnswer? {
    guard isUsable() else { return nil }
    do throws(SQLiteError) {
      return try readers.withConnection { (connection) throws(SQLiteError) -> StoredAnswer? in
        var answer: StoredAnswer?
        try connection.query(
          "SELECT items, fetched_at FROM answers WHERE source = ? AND term = ? AND scope = ? AND lim = ? AND country = ?",
          key.values
        ) { row in answer = StoredAnswer(encoded: row.blob(0), fetchedAt: row.integer(1)) }
        return answer
      }
    } catch {
      fail(error)
      return nil
    }
  }

  /// Hands `items` to the writer for `key`; returns at once.
  public func save(_ items: [Category: [SearchItem]], fetchedAt: Int64, for key: StoreKey) {
    writer.submit(.save(key, items, fetchedAt: fetchedAt))
  }

  /// Hands "`key` was just used" to the writer, for the LRU order; returns at once.
  public func markUsed(_ key: StoreKey, at instant: Int64) {
    writer.submit(.markUsed(key, at: instant))
  }

  /// In one `BEGIN IMMEDIATE` transaction on a budget connection: forgets the requests of `name`
  /// granted before `since`, reads the others, and records what `decide` returns.
  public func reserve<Decision: Sendable>(
    inBudget name: String, since: Int64, _ decide: ([BudgetEntry]) -> (Decision, record: BudgetEntry?)
  ) async throws(SharedStoreFailure) -> Decision {
    try checkUsableForBudget()
    do throws(SQLiteError) {
      return try budgets.withConnection { (connection) throws(SQLiteError) -> Decision in
        try connection.inImmediateTransaction { () throws(SQLiteError) -> Decision in
          try connection.query("DELETE FROM requests WHERE budget = ? AND sent_at < ?", [.text(name), .integer(since)])
          var entries: [BudgetEntry] = []
          try connection.query("SELECT id, sent_at, ended_at FROM requests WHERE budget = ?", [.text(name)]) { row in
            entries.append(
              BudgetEntry(id: row.text(0), grantedAt: row.integer(1), endedAt: row.isNull(2) ? nil : row.integer(2)))
          }
          let (decision, record) = decide(entries)
          if let record {
            try connection.query(
              "INSERT INTO requests (budget, sent_at, id, ended_at) VALUES (?, ?, ?, ?)",
              [.text(name), .integer(record.grantedAt), .text(record.id), record.endedAt.map { .integer($0) } ?? .null])
          }
          return decision
        }
      }
    } catch {
      throw budgetFailure(error)
    }
  }

  /// Hands the request's end to the writer, which sets its `ended_at`; returns at once.
  public func finishRequest(_ id: String, inBudget name: String, endedAt: Int64) {
    writer.submit(.finishRequest(budget: name, id: id, endedAt: endedAt))
  }

  /// Returns once every write handed over so far is committed and the write-ahead log folded into
  /// the file (or dropped, the store being off); at once while the store is starting.
  public func flush() async {
    guard isUsable() else {
      await turnedOff()
      return
    }
    await writer.flush()
  }

  /// Turns the store off, reporting `reason` once.
  public func turnOff(because reason: String) {
    turnOff(reason: "\(path): \(reason)")
  }

  /// `mkdir -p`: nil when `path` is a directory afterwards, else why not (strerror's text).
  private static func makeDirectory(_ path: String) -> String? {
    var partial = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      partial += "/" + component
      guard mkdir(partial, 0o755) != 0 else { continue }
      let code = errno
      var status = stat()
      guard code == EEXIST, stat(partial, &status) == 0 else { return String(cString: strerror(code)) }
      guard status.st_mode & S_IFMT == S_IFDIR else { return "\(partial) is not a directory" }
    }
    return nil
  }
}

/// The store's name before `SharedStore` had other implementations.
@available(*, deprecated, renamed: "SQLiteStore")
public typealias AnswerStore = SQLiteStore

extension StoreKey {
  /// The values bound to `source = ? AND term = ? AND scope = ? AND lim = ? AND country = ?`.
  var values: [SQLiteValue] {
    [.text(source), .text(term), .text(scope), .integer(Int64(limit)), .text(country)]
  }
}
