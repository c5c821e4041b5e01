// Opening the cache file without harming one that is not ours. Its first 100 bytes are read first,
// with read(2), so nothing is created or changed; SQLite opens it read-only when those bytes cannot
// tell (answers still only in the write-ahead log); only a file that is ours, or empty, is opened
// for writing, brought to this schema and switched to WAL mode.
import Pipeline
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is at the cache path, and making it ready.
enum StoreFile {
  /// What the file's first bytes say.
  enum Finding: Equatable {
    /// No file: it is created.
    case absent
    /// An empty file, or an empty SQLite database (one page, no application id): taken over.
    case empty
    /// Not an SQLite file: left alone.
    case notADatabase
    /// A stream-search cache of this schema version.
    case ours(version: Int64)
    /// An SQLite database of another program: left alone.
    case foreign
    /// An SQLite database without an application id whose write-ahead log is not empty: SQLite
    /// itself must read it (read-only) to tell.
    case unstamped
    /// The file cannot be read; why.
    case unreadable(String)
  }

  /// Reads the header of the SQLite file at `path` (its format in SQLite's documentation,
  /// "Database File Format"): the magic string, the page size at 16, the application id at 68 and
  /// the user version at 60, big-endian.
  static func inspect(_ path: String) -> Finding {
    var status = stat()
    guard stat(path, &status) == 0 else {
      return errno == ENOENT ? .absent : .unreadable(String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else { return .unreadable("it is not a regular file") }
    let size = Int64(status.st_size)
    let walSize = fileSize(path + "-wal")
    if size == 0 { return walSize > 0 ? .unstamped : .empty }
    guard let header = firstBytes(of: path, count: 100) else { return .unreadable(String(cString: strerror(errno))) }
    guard header.count == 100, header.starts(with: Array("SQLite format 3".utf8) + [0]) else { return .notADatabase }
    let application = Int64(bigEndian32(header, at: 68))
    if application == StoreSchema.applicationID { return .ours(version: Int64(bigEndian32(header, at: 60))) }
    if application != 0 { return .foreign }
    if walSize > 0 { return .unstamped }
    // The page size (1 stands for 65,536): a database of one page holds no table.
    let pageSize = Int64(header[16]) << 8 | Int64(header[17])
    return size <= (pageSize == 1 ? 65_536 : pageSize) ? .empty : .foreign
  }

  /// Makes the file at `path` ready: refused (untouched) when it is not ours; created, migrated
  /// and switched to WAL mode when it is ours or empty.
  ///
  /// - Throws: ``StoreOpenError/busy`` when another connection holds a lock beyond `busyTimeout` ms
  ///   (the caller tries again later); ``StoreOpenError/refused(_:)`` or
  ///   ``StoreOpenError/failed(_:)`` otherwise.
  static func prepare(path: String, busyTimeout: Int32) throws(StoreOpenError) {
    var finding = inspect(path)
    if finding == .unstamped { finding = try identify(path, busyTimeout: busyTimeout) }
    switch finding {
    case .notADatabase: throw .refused(.notADatabase("file is not a database"))
    case .foreign: throw .refused(.foreign)
    case .ours(let version) where version > StoreSchema.version: throw .refused(.newer(version))
    case .unreadable(let reason): throw .failed("cannot read it: \(reason)")
    case .absent, .empty, .ours, .unstamped: break
    }
    do {
      let connection = try SQLiteConnection(path: path, access: .readWrite(create: true), busyTimeout: busyTimeout)
      if connection.isReadOnly { throw StoreOpenError.failed("it is read-only") }
      let outcome = try connection.inImmediateTransaction { () throws(SQLiteError) in
        try StoreSchema.bringUpToDate(connection)
      }
      if case .refused(let refusal) = outcome { throw StoreOpenError.refused(refusal) }
      // Only now, the file being ours: WAL lets readers and one writer work at once.
      var mode = ""
      try connection.query("PRAGMA journal_mode = WAL") { row in mode = row.text(0) }
      guard mode == "wal" else { throw StoreOpenError.busy }
    } catch let error as StoreOpenError {
      throw error
    } catch let error as SQLiteError {
      throw StoreOpenError(error)
    } catch {
      throw .failed("\(error)")
    }
  }

  /// What SQLite, reading only, says of a file whose header could not tell.
  private static func identify(_ path: String, busyTimeout: Int32) throws(StoreOpenError) -> Finding {
    do throws(SQLiteError) {
      let connection = try SQLiteConnection(path: path, access: .readOnly, busyTimeout: busyTimeout)
      let identity = try StoreSchema.identity(connection)
      if identity.application == StoreSchema.applicationID { return .ours(version: identity.version) }
      return identity.application == 0 && identity.tables == 0 ? .empty : .foreign
    } catch {
      throw StoreOpenError(error)
    }
  }

  private static func fileSize(_ path: String) -> Int64 {
    var status = stat()
    return stat(path, &status) == 0 ? Int64(status.st_size) : 0
  }

  private static func firstBytes(of path: String, count: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress.map { $0 + filled }, count - filled)
      }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { break }
      filled += got
    }
    return Array(bytes.prefix(filled))
  }

  private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }
}
