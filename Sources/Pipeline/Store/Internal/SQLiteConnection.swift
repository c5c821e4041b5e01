// One connection to an SQLite file, as thin as the store needs: statements with bound values,
// rows read by column, and every failure as an error that carries SQLite's own message.
import CSQLite

/// A failed SQLite call: the result code and SQLite's message for it.
struct SQLiteError: Error, CustomStringConvertible {
  /// The primary result code, e.g. SQLITE_FULL, SQLITE_NOTADB, SQLITE_CORRUPT.
  let code: Int32
  /// SQLite's explanation, e.g. "file is not a database".
  let message: String

  var description: String { message }

  /// Whether the file itself is unusable (not a database, damaged), rather than busy or full.
  var isDamage: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
  case integer(Int64)
  case text(String)
  case blob([UInt8])
}

/// An open connection. Each owner keeps its own (the store has one behind a lock, its writer
/// thread one of its own), which WAL mode lets run side by side.
///
/// `@unchecked Sendable`: opened in SQLite's multi-thread mode, a connection may move between
/// threads but must not be used by two at once; every owner guarantees that (a lock, or one
/// thread), which the compiler cannot see through the C handle.
final class SQLiteConnection: @unchecked Sendable {
  private let handle: OpaquePointer

  /// Opens (creating if needed) the database at `path` for reading and writing, with `busyTimeout`
  /// milliseconds of waiting for another process's lock before a call fails with SQLITE_BUSY.
  init(path: String, busyTimeout: Int32) throws(SQLiteError) {
    var opened: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &opened, flags, nil)
    guard let opened else { throw SQLiteError(code: code, message: "cannot open the file") }
    guard code == SQLITE_OK else {
      let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(opened)))
      sqlite3_close_v2(opened)
      throw error
    }
    handle = opened
    sqlite3_busy_timeout(handle, busyTimeout)
  }

  deinit { sqlite3_close_v2(handle) }

  /// True when SQLite could open the file only for reading (its permissions or its file system).
  var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Runs `sql` (one or more statements, no parameters, rows ignored).
  func execute(_ sql: String) throws(SQLiteError) {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code) }
  }

  /// Runs one statement with `values` bound to its `?` parameters, calling `row` for each row.
  func query(_ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteRow) throws(SQLiteError) -> Void = { _ in })
    throws(SQLiteError)
  {
    var prepared: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
    guard code == SQLITE_OK, let statement = prepared else { throw error(code) }
    defer { sqlite3_finalize(statement) }
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      let bound: Int32
      switch value {
      case .integer(let number): bound = sqlite3_bind_int64(statement, position, number)
      case .text(let text): bound = sqlite3_bind_text(statement, position, text, -1, transient)
      case .blob(let bytes):
        bound = bytes.withUnsafeBytes { raw in
          sqlite3_bind_blob(statement, position, raw.baseAddress, Int32(raw.count), transient)
        }
      }
      guard bound == SQLITE_OK else { throw error(bound) }
    }
    while true {
      let step = sqlite3_step(statement)
      switch step {
      case SQLITE_ROW: try row(SQLiteRow(statement: statement))
      case SQLITE_DONE: return
      default: throw error(step)
      }
    }
  }

  /// The first column of the first row of `sql`, as an integer; nil when there is no row.
  func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
    var result: Int64?
    try query(sql, values) { row in if result == nil { result = row.integer(0) } }
    return result
  }

  /// Runs `body` in one transaction that takes the write lock at once (BEGIN IMMEDIATE), so two
  /// processes never interleave a read and a write; rolled back when `body` throws.
  func inImmediateTransaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  private func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
  }
}

/// The current row of a statement, read by column index.
struct SQLiteRow {
  let statement: OpaquePointer

  func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

  func text(_ column: Int32) -> String {
    guard let bytes = sqlite3_column_text(statement, column) else { return "" }
    return String(cString: bytes)
  }

  func blob(_ column: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(statement, column))
    guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }
}

/// SQLITE_TRANSIENT, a macro Swift cannot import: SQLite copies the bound bytes before returning.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
