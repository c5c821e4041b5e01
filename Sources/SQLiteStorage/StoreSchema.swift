// The disk cache file's layout and how an existing file is brought to it: ours at this version,
// ours at an older version (migrated), ours at a newer version or someone else's (left alone).
import Pipeline

/// The tables of `cache.sqlite`.
///
/// A file is ours when its `application_id` is ``applicationID``; `user_version` is the schema
/// version. See docs/cache.md for the columns.
enum StoreSchema {
  /// "SSCH": marks the file as a stream-search cache, so a foreign SQLite file is never taken over.
  static let applicationID: Int64 = 0x5353_4348
  /// The version this build writes.
  static let version: Int64 = 3

  /// Why an existing file cannot be used.
  enum Refusal: Error, CustomStringConvertible, Equatable {
    /// Not an SQLite database at all, or damaged; SQLite's words when it said so.
    case notADatabase(String)
    /// An SQLite database of some other program.
    case foreign
    /// Written by a newer stream-search; reading it could misread it, rebuilding would destroy it.
    case newer(Int64)

    var description: String {
      switch self {
      case .notADatabase(let detail): "it is damaged or not a database: \(detail)"
      case .foreign: "it is an SQLite file of another program"
      case .newer(let version):
        "it was written by a newer stream-search (schema \(version); this one reads \(StoreSchema.version))"
      }
    }
  }

  /// Version 3: answers with their LRU stamp and size, and the requests of each budget with the
  /// instant each was granted and, once over, ended.
  static let create = """
    CREATE TABLE answers (
      source TEXT NOT NULL, term TEXT NOT NULL, scope TEXT NOT NULL, lim INTEGER NOT NULL, country TEXT NOT NULL,
      items BLOB NOT NULL, fetched_at INTEGER NOT NULL, used_at INTEGER NOT NULL, bytes INTEGER NOT NULL,
      PRIMARY KEY (source, term, scope, lim, country)
    ) WITHOUT ROWID;
    CREATE INDEX answers_by_use ON answers (used_at);
    CREATE TABLE requests (budget TEXT NOT NULL, sent_at INTEGER NOT NULL, id TEXT NOT NULL, ended_at INTEGER);
    CREATE INDEX requests_by_time ON requests (budget, sent_at);
    """

  /// From version 1 (answers without `used_at` and `bytes`, no requests table) to version 2.
  static let migrateFrom1 = """
    ALTER TABLE answers ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE answers ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
    UPDATE answers SET used_at = fetched_at, bytes = length(items);
    CREATE INDEX answers_by_use ON answers (used_at);
    CREATE TABLE requests (budget TEXT NOT NULL, sent_at INTEGER NOT NULL);
    CREATE INDEX requests_by_time ON requests (budget, sent_at);
    """

  /// From version 2 (requests recorded only when granted) to version 3. A request recorded by a
  /// version-2 process has no end: it holds its permit for the rule's lease.
  static let migrateFrom2 = """
    ALTER TABLE requests ADD COLUMN id TEXT NOT NULL DEFAULT '';
    ALTER TABLE requests ADD COLUMN ended_at INTEGER;
    """

  /// What ``bringUpToDate(_:)`` did.
  enum Outcome: Equatable {
    /// The file was at this version already.
    case unchanged
    /// The tables were created, or migrated.
    case changed
    /// The file is not ours to change; nothing was written.
    case refused(Refusal)
  }

  /// Brings a file that is ours, or empty, to this version, in the caller's transaction: creates
  /// the tables in an empty file and migrates an older version; refuses a foreign or newer file
  /// without writing anything.
  static func bringUpToDate(_ connection: SQLiteConnection) throws(SQLiteError) -> Outcome {
    let application = try connection.integer("PRAGMA application_id") ?? 0
    let found = try connection.integer("PRAGMA user_version") ?? 0
    let tables = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
    if application != applicationID {
      guard application == 0, tables == 0 else { return .refused(.foreign) }
      try connection.execute(create)
    } else {
      switch found {
      case version: return .unchanged
      case 1: try connection.execute(migrateFrom1 + migrateFrom2)
      case 2: try connection.execute(migrateFrom2)
      case let newer where newer > version: return .refused(.newer(newer))
      default:
        // An unknown older layout: the answers are only a cache, so start again.
        try connection.execute("DROP TABLE IF EXISTS answers; DROP TABLE IF EXISTS requests")
        try connection.execute(create)
      }
    }
    try connection.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(version)")
    return .changed
  }

  /// What a file holds, read in one read transaction without changing anything: its application
  /// id, schema version and number of schema objects.
  static func identity(_ connection: SQLiteConnection) throws(SQLiteError) -> (
    application: Int64, version: Int64, tables: Int64
  ) {
    try connection.execute("BEGIN")
    defer { try? connection.execute("COMMIT") }
    return (
      try connection.integer("PRAGMA application_id") ?? 0, try connection.integer("PRAGMA user_version") ?? 0,
      try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
    )
  }
}

/// Why a store could not be opened (yet).
enum StoreOpenError: Error {
  /// Another connection holds a lock: try again.
  case busy
  /// The file is not ours to use.
  case refused(StoreSchema.Refusal)
  /// Any other failure, said in one line.
  case failed(String)

  init(_ error: SQLiteError) {
    if error.isBusy {
      self = .busy
    } else if error.isDamage {
      self = .refused(.notADatabase(error.message))
    } else {
      self = .failed(error.message)
    }
  }
}
