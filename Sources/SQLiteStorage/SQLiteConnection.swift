// One connection to an SQLite file, as thin as the store needs: statements with bound values,
// rows read by column, and every failure as an error that carries SQLite's own message. Every
// text and blob crosses in both directions with its byte length, so a NUL byte is a byte like
// any other: a key holding one is stored, compared and read back whole.
import Pipeline

/// A failed SQLite call: the result code and SQLite's message for it.
struct SQLiteError: Error, CustomStringConvertible {
  /// The primary result code, e.g. ``SQLiteCode/full``, ``SQLiteCode/notADatabase``.
  let code: Int32
  /// SQLite's explanation, e.g. "file is not a database".
  let message: String

  var description: String { message }

  /// Whether the file itself is unusable (not a database, damaged), rather than busy or full.
  var isDamage: Bool { code == SQLiteCode.notADatabase || code == SQLiteCode.corrupt }

  /// Whether another connection holds a lock the call needed (or, for SQLITE_PROTOCOL, a WAL
  /// reader could not get one after SQLite's own retries, under heavy contention): worth trying
  /// again later, never a reason to give the file up.
  var isBusy: Bool { code == SQLiteCode.busy || code == SQLiteCode.locked || code == SQLiteCode.protocolFailure }
}

/// A value bound to a statement's parameter.
enum SQLiteValue: Sendable, Hashable {
  case integer(Int64)
  case text(String)
  case blob([UInt8])
  case null
}

/// An open connection. Each owner keeps its own, which WAL mode lets run side by side.
///
/// `@unchecked Sendable`: opened in SQLite's multi-thread mode, a connection may move between
/// threads but must not be used by two at once; every owner guarantees that (it checks the
/// connection out of a pool, or keeps it on one thread), which the compiler cannot see through
/// the C handle.
final class SQLiteConnection: @unchecked Sendable {
  /// How a connection opens its file.
  enum Access {
    /// Reading only; the file must exist. Nothing is written, not even a journal.
    case readOnly
    /// Reading and writing; the file is created when `create` and it does not exist.
    case readWrite(create: Bool)
  }

  private let library: SQLiteLibrary
  private let handle: SQLiteLibrary.Database

  /// Opens the database at `path`, with `busyTimeout` milliseconds of waiting for another
  /// process's lock before a call fails with SQLITE_BUSY.
  ///
  /// - Throws: ``SQLiteError`` when the file cannot be opened; one with the code
  ///   ``SQLiteCode/cantOpen`` and ``SQLiteLibraryUnavailable``'s line when SQLite's runtime
  ///   library is missing.
  init(path: String, access: Access = .readWrite(create: true), busyTimeout: Int32) throws(SQLiteError) {
    switch SQLiteLibrary.shared {
    case .success(let library): self.library = library
    case .failure(let missing): throw SQLiteError(code: SQLiteCode.cantOpen, message: missing.description)
    }
    var flags = SQLiteCode.openNoMutex
    switch access {
    case .readOnly: flags |= SQLiteCode.openReadOnly
    case .readWrite(let create): flags |= SQLiteCode.openReadWrite | (create ? SQLiteCode.openCreate : 0)
    }
    var opened: SQLiteLibrary.Database?
    let code = library.open(path, &opened, flags, nil)
    guard let opened else {
      throw SQLiteError(code: code, message: library.errorText(code).map { String(cString: $0) } ?? "cannot open")
    }
    guard code == SQLiteCode.ok else {
      let error = SQLiteError(
        code: code & 0xFF, message: library.errorMessage(opened).map { String(cString: $0) } ?? "")
      _ = library.close(opened)
      throw error
    }
    handle = opened
    _ = library.busyTimeout(handle, busyTimeout)
  }

  deinit { _ = library.close(handle) }

  /// True when SQLite could open the file only for reading (its permissions, its file system, or
  /// ``Access/readOnly``).
  var isReadOnly: Bool { library.databaseIsReadOnly(handle, "main") == 1 }

  /// Changes how long a call waits for another connection's lock, in milliseconds.
  func setBusyTimeout(_ milliseconds: Int32) {
    _ = library.busyTimeout(handle, milliseconds)
  }

  /// Runs `sql` (one or more statements, no parameters, rows ignored).
  func execute(_ sql: String) throws(SQLiteError) {
    let code = library.exec(handle, sql, nil, nil, nil)
    guard code == SQLiteCode.ok else { throw error(code) }
  }

  /// Runs one statement with `values` bound to its `?` parameters, calling `row` for each row.
  func query(_ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteRow) throws(SQLiteError) -> Void = { _ in })
    throws(SQLiteError)
  {
    var prepared: SQLiteLibrary.Statement?
    let code = library.prepare(handle, sql, -1, &prepared, nil)
    guard code == SQLiteCode.ok, let statement = prepared else { throw error(code) }
    defer { _ = library.finalize(statement) }
    for (index, value) in values.enumerated() {
      let bound = bind(value, at: Int32(index + 1), in: statement)
      guard bound == SQLiteCode.ok else { throw error(bound) }
    }
    while true {
      let step = library.step(statement)
      switch step {
      case SQLiteCode.row: try row(SQLiteRow(library: library, statement: statement))
      case SQLiteCode.done: return
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

  /// Binds `value` with its length in bytes. An empty text or blob is bound from a real (empty)
  /// buffer, since a null pointer would bind NULL instead.
  private func bind(_ value: SQLiteValue, at position: Int32, in statement: SQLiteLibrary.Statement) -> Int32 {
    switch value {
    case .integer(let number):
      return library.bindInt64(statement, position, number)
    case .text(let text):
      var text = text
      return text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { characters in
          guard let start = characters.baseAddress else {
            return library.bindText64(statement, position, "", 0, SQLiteCode.transient, SQLiteCode.utf8)
          }
          return library.bindText64(
            statement, position, start, UInt64(characters.count), SQLiteCode.transient, SQLiteCode.utf8)
        }
      }
    case .blob(let bytes):
      return bytes.withUnsafeBytes { raw in
        guard let start = raw.baseAddress else {
          return withUnsafeBytes(of: UInt8(0)) { empty in
            library.bindBlob64(statement, position, empty.baseAddress, 0, SQLiteCode.transient)
          }
        }
        return library.bindBlob64(statement, position, start, UInt64(raw.count), SQLiteCode.transient)
      }
    case .null:
      return library.bindNull(statement, position)
    }
  }

  private func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code & 0xFF, message: library.errorMessage(handle).map { String(cString: $0) } ?? "")
  }
}

/// The current row of a statement, read by column index.
struct SQLiteRow {
  fileprivate let library: SQLiteLibrary
  fileprivate let statement: SQLiteLibrary.Statement

  /// How many columns the row has.
  var count: Int32 { library.columnCount(statement) }

  /// Whether the column holds NULL.
  func isNull(_ column: Int32) -> Bool { library.columnType(statement, column) == SQLiteCode.columnNull }

  func integer(_ column: Int32) -> Int64 { library.columnInt64(statement, column) }

  /// The column's text, every byte of it (a NUL included); invalid UTF-8 is repaired with U+FFFD.
  func text(_ column: Int32) -> String {
    // The text first, then its length: the order SQLite's documentation asks for.
    guard let start = library.columnText(statement, column) else { return "" }
    let count = Int(library.columnBytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  }

  func blob(_ column: Int32) -> [UInt8] {
    let start = library.columnBlob(statement, column)
    let count = Int(library.columnBytes(statement, column))
    guard count > 0, let start else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: count))
  }
}
