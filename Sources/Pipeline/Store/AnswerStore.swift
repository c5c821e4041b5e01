// The disk tier (L2) of the answer cache: one SQLite file that every run and every process using
// the same directory shares, for answers across runs and for one request budget across processes.
import Foundation
import Synchronization

/// Answers kept on disk across runs, and the requests sent, in `DIRECTORY/cache.sqlite`.
///
/// Useful behind the memory cache for a network source: a second run answers from disk without a
/// request, and an expired answer is there to serve when the source fails.
///
/// ```swift
/// let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-search-example").path
/// let store = AnswerStore.open(directory: directory, wallClock: SystemWallClock()) { line in
///   print("Warning: \(line)")
/// }
/// var configuration = PipelineConfiguration()
/// configuration.store = store
/// ```
///
/// - Reads are synchronous on the caller's task and take tens of microseconds (WAL mode: never
///   blocked by another process's writes).
/// - Writes are handed to a writer thread (a `StoreWriter`) and committed in short batches;
///   eviction (least recently used, over ``capacity`` answers or ``maxBytes``) runs there too.
/// - Failure: a file that cannot be used (not a database, damaged, foreign, newer, read-only),
///   a full disk or a directory that cannot be created turns the store off: `report` gets one
///   line saying why, ``status`` says `off`, and every call afterwards does nothing.
/// - Several processes may share the file; a busy lock is waited for up to 2 s, then that one
///   read misses or that one batch is dropped.
public final class AnswerStore: Sendable {
  /// Whether the disk tier is in use.
  public enum Status: Sendable, Equatable {
    /// Answers are read from and written to the file.
    case on
    /// The file cannot be used; the reason is what `report` was told.
    case off(reason: String)
  }

  /// The name of the file in the cache directory.
  public static let fileName = "cache.sqlite"
  /// The ``maxBytes`` of a store opened without one: 64 MiB.
  public static let defaultMaxBytes = 64 << 20
  /// How long a call waits for another process's lock, in milliseconds.
  static let busyTimeout: Int32 = 2_000

  /// Most answers kept; the least recently used beyond are evicted.
  public let capacity: Int
  /// Most bytes of answers kept (their encoded items); the least recently used beyond are evicted.
  public let maxBytes: Int
  /// The clock answers and requests are stamped with.
  let wallClock: any WallClock
  private let reader: Mutex<SQLiteConnection?>
  private let state: Mutex<Status>
  private let report: @Sendable (String) -> Void
  let path: String
  private let writer: StoreWriter?

  /// Opens (creating if needed) `directory/cache.sqlite`. Never throws: a store that cannot be
  /// used is returned off, after `report` was told why in one line.
  ///
  /// - Parameters:
  ///   - directory: the folder that holds `cache.sqlite`; created when missing.
  ///   - capacity: most answers kept (`--cache-size`); by default the memory cache's default.
  ///   - maxBytes: most bytes of encoded answers kept.
  ///   - wallClock: stamps answers and requests.
  ///   - report: told once, in one line, when the disk tier goes off.
  public static func open(
    directory: String, capacity: Int = PipelineConfiguration().cacheCapacity, maxBytes: Int = defaultMaxBytes,
    wallClock: any WallClock = SystemWallClock(),
    report: @escaping @Sendable (String) -> Void
  ) -> AnswerStore {
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
  ) -> AnswerStore {
    let path = (directory as NSString).appendingPathComponent(fileName)
    do throws(StoreOpenFailure) {
      let connection = try openConnection(directory: directory, path: path)
      return AnswerStore(
        path: path, connection: connection, writer: StoreWriter(path: path, busyTimeout: writerBusyTimeout),
        capacity: capacity, maxBytes: maxBytes, wallClock: wallClock, report: report)
    } catch {
      report(Self.offLine(error.message))
      return AnswerStore(
        path: path, connection: nil, writer: nil, capacity: capacity, maxBytes: maxBytes, wallClock: wallClock,
        report: report, status: .off(reason: error.message))
    }
  }

  /// The directory made and the file opened and brought to this schema version.
  private static func openConnection(directory: String, path: String) throws(StoreOpenFailure) -> SQLiteConnection {
    if case .failure(let missing) = SQLiteLibrary.shared { throw StoreOpenFailure(missing.description) }
    if let failure = makeDirectory(directory) {
      throw StoreOpenFailure("cannot create the directory \(directory): \(failure)")
    }
    let connection: SQLiteConnection
    do {
      connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
    } catch {
      throw StoreOpenFailure("cannot open \(path): \(error)")
    }
    if connection.isReadOnly { throw StoreOpenFailure("\(path) is read-only") }
    do {
      try StoreSchema.prepare(connection)
    } catch let refusal as StoreSchema.Refusal {
      throw StoreOpenFailure("\(path) is not usable: \(refusal)")
    } catch let error as SQLiteError where error.isDamage {
      throw StoreOpenFailure("\(path) is damaged or not a database: \(error)")
    } catch {
      throw StoreOpenFailure("cannot use \(path): \(error)")
    }
    return connection
  }

  private init(
    path: String, connection: SQLiteConnection?, writer: StoreWriter?, capacity: Int, maxBytes: Int,
    wallClock: any WallClock, report: @escaping @Sendable (String) -> Void, status: Status = .on
  ) {
    self.path = path
    self.reader = Mutex(connection)
    self.writer = writer
    self.capacity = max(1, capacity)
    self.maxBytes = max(1, maxBytes)
    self.wallClock = wallClock
    self.report = report
    self.state = Mutex(status)
    writer?.start(store: self)
  }

  /// Whether the disk tier is in use, or why not.
  public var status: Status { state.withLock { $0 } }

  /// The answer stored for `key`, however old, and when it was fetched; nil on a miss, when the
  /// store is off, or when another process holds the file too long.
  package func answer(for key: StoreKey) -> StoredAnswer? {
    let found = withReader { (connection: SQLiteConnection) throws(SQLiteError) -> StoredAnswer? in
      var answer: StoredAnswer?
      try connection.query(
        "SELECT items, fetched_at FROM answers WHERE source = ? AND term = ? AND scope = ? AND lim = ? AND country = ?",
        key.values
      ) { row in
        answer = StoredAnswer(encoded: row.blob(0), fetchedAt: row.integer(1))
      }
      return answer
    }
    return found ?? nil
  }

  /// Hands `items`, fetched now, to the writer for `key`; returns at once.
  package func save(_ items: [Category: [SearchItem]], for key: StoreKey) {
    writer?.submit(.save(key, items, fetchedAt: wallClock.millisecondsSinceEpoch))
  }

  /// Hands "`key` was just used" to the writer, for the LRU order; returns at once.
  func markUsed(_ key: StoreKey) {
    writer?.submit(.markUsed(key, at: wallClock.millisecondsSinceEpoch))
  }

  /// Returns once every write handed over so far is committed (or dropped, the store being off).
  public func flush() async {
    await writer?.flush()
  }

  /// Turns the store off after `error`, reporting it once; a busy file only misses this once.
  func fail(_ error: SQLiteError) {
    guard !error.isBusy else { return }
    let reason = error.isDamage ? "\(path) is damaged or not a database: \(error)" : "cannot write \(path): \(error)"
    let first = state.withLock { status -> Bool in
      guard status == .on else { return false }
      status = .off(reason: reason)
      return true
    }
    guard first else { return }
    reader.withLock { $0 = nil }
    writer?.stop()
    report(Self.offLine(reason))
  }

  /// Runs `body` on the reader's connection (under its lock); nil when the store is off or the
  /// call failed (a failure other than a busy file turns the store off).
  func withReader<T: Sendable>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) -> T? {
    let result: Result<T, SQLiteError>? = reader.withLock { connection in
      guard let connection else { return nil }
      do throws(SQLiteError) {
        return .success(try body(connection))
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let value): return value
    case .failure(let error):
      fail(error)
      return nil
    case nil: return nil
    }
  }

  private static func offLine(_ reason: String) -> String {
    "disk cache off: \(reason); answers are kept in memory only"
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

/// Why the store could not be opened, as the stderr line says it.
private struct StoreOpenFailure: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
