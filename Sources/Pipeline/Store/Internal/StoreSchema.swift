// The disk cache file's layout and how an existing file is recognised: ours at this version,
// ours at an older version (migrated), ours at a newer version or someone else's (left alone).

/// The tables of `cache.sqlite` and the rules for opening a file that already exists.
///
/// A file is ours when its `application_id` is ``applicationID``; `user_version` is the schema
/// version. See docs/cache.md for the columns.
enum StoreSchema {
  /// "SSCH": marks the file as a stream-search cache, so a foreign SQLite file is never taken over.
  static let applicationID: Int64 = 0x5353_4348
  /// The version this build writes.
  static let version: Int64 = 2

  /// Why an existing file cannot be used.
  enum Refusal: Error, CustomStringConvertible {
    /// An SQLite database of some other program.
    case foreign
    /// Written by a newer stream-search; reading it could misread it, rebuilding would destroy it.
    case newer(Int64)

    var description: String {
      switch self {
      case .foreign: "it is an SQLite file of another program"
      case .newer(let version):
        "it was written by a newer stream-search (schema \(version); this one reads \(StoreSchema.version))"
      }
    }
  }

  /// Version 2: answers with their LRU stamp and size, and the requests sent, for the shared budget.
  static let create = """
    CREATE TABLE answers (
      source TEXT NOT NULL, term TEXT NOT NULL, scope TEXT NOT NULL, lim INTEGER NOT NULL, country TEXT NOT NULL,
      items BLOB NOT NULL, fetched_at INTEGER NOT NULL, used_at INTEGER NOT NULL, bytes INTEGER NOT NULL,
      PRIMARY KEY (source, term, scope, lim, country)
    ) WITHOUT ROWID;
    CREATE INDEX answers_by_use ON answers (used_at);
    CREATE TABLE requests (budget TEXT NOT NULL, sent_at INTEGER NOT NULL);
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

  /// Brings the file at `connection` to this version in one transaction: creates it when empty,
  /// migrates version 1, and refuses a foreign or newer file without changing it.
  static func prepare(_ connection: SQLiteConnection) throws {
    try connection.execute("PRAGMA journal_mode = WAL")
    try connection.inImmediateTransaction { () throws(SQLiteError) -> Result<Void, Refusal> in
      let application = try connection.integer("PRAGMA application_id") ?? 0
      let found = try connection.integer("PRAGMA user_version") ?? 0
      let tables = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
      if application != applicationID {
        guard application == 0, tables == 0 else { return .failure(.foreign) }
        try connection.execute(create)
        try stamp(connection)
        return .success(())
      }
      switch found {
      case version: return .success(())
      case 1:
        try connection.execute(migrateFrom1)
        try stamp(connection)
        return .success(())
      case let newer where newer > version: return .failure(.newer(newer))
      default:
        // An unknown older layout: the answers are only a cache, so start again.
        try connection.execute("DROP TABLE IF EXISTS answers; DROP TABLE IF EXISTS requests")
        try connection.execute(create)
        try stamp(connection)
        return .success(())
      }
    }.get()
  }

  private static func stamp(_ connection: SQLiteConnection) throws(SQLiteError) {
    try connection.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(version)")
  }
}
