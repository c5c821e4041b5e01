// SQLite's C functions as the store calls them, declared here and found at run time with dlopen
// and dlsym: the package builds with the toolchain alone (no sqlite3.h, no libsqlite3.so link
// library, no -dev package), and a machine without SQLite's runtime library loses only the store.
import Pipeline
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The runtime library, opened once, and the twenty-odd functions the store calls.
///
/// Each declaration below is the C prototype from SQLite's documentation written as a Swift
/// function type. Two liberties, both the same machine word in the C calling convention: a
/// destructor argument is declared `Int`, so SQLITE_TRANSIENT is passed as `-1` rather than as
/// a function pointer made from an integer; `exec`'s callback is declared an opaque pointer,
/// always null.
struct SQLiteLibrary: Sendable {
  typealias Database = OpaquePointer
  typealias Statement = OpaquePointer

  let open:
    @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Database?>?, Int32, UnsafePointer<CChar>?) ->
      Int32
  let close: @convention(c) (Database?) -> Int32
  let busyTimeout: @convention(c) (Database?, Int32) -> Int32
  let databaseIsReadOnly: @convention(c) (Database?, UnsafePointer<CChar>?) -> Int32
  let errorMessage: @convention(c) (Database?) -> UnsafePointer<CChar>?
  let errorText: @convention(c) (Int32) -> UnsafePointer<CChar>?
  let exec:
    @convention(c) (
      Database?, UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutableRawPointer?,
      UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32
  let prepare:
    @convention(c) (
      Database?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<Statement?>?,
      UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Int32
  let step: @convention(c) (Statement?) -> Int32
  let finalize: @convention(c) (Statement?) -> Int32
  let bindInt64: @convention(c) (Statement?, Int32, Int64) -> Int32
  let bindText64: @convention(c) (Statement?, Int32, UnsafePointer<CChar>?, UInt64, Int, UInt8) -> Int32
  let bindBlob64: @convention(c) (Statement?, Int32, UnsafeRawPointer?, UInt64, Int) -> Int32
  let bindNull: @convention(c) (Statement?, Int32) -> Int32
  let columnCount: @convention(c) (Statement?) -> Int32
  let columnType: @convention(c) (Statement?, Int32) -> Int32
  let columnInt64: @convention(c) (Statement?, Int32) -> Int64
  let columnText: @convention(c) (Statement?, Int32) -> UnsafePointer<UInt8>?
  let columnBlob: @convention(c) (Statement?, Int32) -> UnsafeRawPointer?
  let columnBytes: @convention(c) (Statement?, Int32) -> Int32
  let libraryVersion: @convention(c) () -> UnsafePointer<CChar>?

  /// The file names tried, in order: the runtime library's own name, never the `-dev` package's
  /// unversioned link name first (it may be absent where the runtime library is present).
  static let candidates: [String] = {
    #if canImport(Darwin)
      ["/usr/lib/libsqlite3.dylib", "libsqlite3.dylib"]
    #else
      ["libsqlite3.so.0", "libsqlite3.so"]
    #endif
  }()

  /// What to install when no candidate opens, for the one line the user reads.
  static let installHint: String = {
    #if canImport(Darwin)
      "it is part of macOS; reinstall the system or `brew install sqlite`"
    #else
      "install it (Debian, Ubuntu: apt-get install libsqlite3-0; Fedora: dnf install sqlite-libs; "
        + "Alpine: apk add sqlite-libs)"
    #endif
  }()

  /// The library this process uses, opened at its first use; the failure when there is none.
  static let shared: Result<SQLiteLibrary, SQLiteLibraryUnavailable> = load(candidates: candidates)

  /// Opens the first of `candidates` that dlopen finds and resolves every function in it.
  static func load(candidates: [String]) -> Result<SQLiteLibrary, SQLiteLibraryUnavailable> {
    var reasons: [String] = []
    for name in candidates {
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
        reasons.append(dlerror().map { String(cString: $0) } ?? name)
        continue
      }
      // Never closed: the functions are used for the rest of the process.
      do {
        return .success(try SQLiteLibrary(handle: handle))
      } catch {
        reasons.append(error.reason)
      }
    }
    return .failure(SQLiteLibraryUnavailable(names: candidates, reasons: reasons))
  }

  private init(handle: UnsafeMutableRawPointer) throws(SQLiteLibraryUnavailable) {
    func function<T>(_ name: String) throws(SQLiteLibraryUnavailable) -> T {
      guard let address = dlsym(handle, name) else {
        throw SQLiteLibraryUnavailable(names: [], reasons: ["the library has no \(name)"])
      }
      return unsafeBitCast(address, to: T.self)
    }
    open = try function("sqlite3_open_v2")
    close = try function("sqlite3_close_v2")
    busyTimeout = try function("sqlite3_busy_timeout")
    databaseIsReadOnly = try function("sqlite3_db_readonly")
    errorMessage = try function("sqlite3_errmsg")
    errorText = try function("sqlite3_errstr")
    exec = try function("sqlite3_exec")
    prepare = try function("sqlite3_prepare_v2")
    step = try function("sqlite3_step")
    finalize = try function("sqlite3_finalize")
    bindInt64 = try function("sqlite3_bind_int64")
    bindText64 = try function("sqlite3_bind_text64")
    bindBlob64 = try function("sqlite3_bind_blob64")
    bindNull = try function("sqlite3_bind_null")
    columnCount = try function("sqlite3_column_count")
    columnType = try function("sqlite3_column_type")
    columnInt64 = try function("sqlite3_column_int64")
    columnText = try function("sqlite3_column_text")
    columnBlob = try function("sqlite3_column_blob")
    columnBytes = try function("sqlite3_column_bytes")
    libraryVersion = try function("sqlite3_libversion")
  }

  /// The library's version, e.g. "3.40.1".
  var version: String { libraryVersion().map { String(cString: $0) } ?? "unknown" }
}

/// SQLite's runtime library could not be opened: the store is off, nothing else is.
struct SQLiteLibraryUnavailable: Error, CustomStringConvertible {
  /// The file names tried.
  let names: [String]
  /// What dlopen or dlsym said, one per attempt.
  let reasons: [String]

  /// The failure in one line, saying what to install.
  var description: String {
    let tried = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
    return "SQLite's runtime library was not found\(tried); \(SQLiteLibrary.installHint)"
  }

  /// dlopen's and dlsym's own words, for `--verbose`.
  var reason: String { reasons.joined(separator: "; ") }
}

/// The result codes, open flags and column types the store uses, as SQLite defines them.
enum SQLiteCode {
  static let ok: Int32 = 0
  static let error: Int32 = 1
  static let busy: Int32 = 5
  static let locked: Int32 = 6
  static let readOnly: Int32 = 8
  static let corrupt: Int32 = 11
  static let cantOpen: Int32 = 14
  static let protocolFailure: Int32 = 15
  static let full: Int32 = 13
  static let notADatabase: Int32 = 26
  static let row: Int32 = 100
  static let done: Int32 = 101

  static let openReadOnly: Int32 = 0x0000_0001
  static let openReadWrite: Int32 = 0x0000_0002
  static let openCreate: Int32 = 0x0000_0004
  static let openNoMutex: Int32 = 0x0000_8000

  static let columnNull: Int32 = 5
  static let utf8: UInt8 = 1
  /// SQLITE_TRANSIENT: SQLite copies the bound bytes before the bind call returns.
  static let transient = -1
}
