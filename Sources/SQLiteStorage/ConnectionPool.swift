// Connections to one file handed out one caller at a time: a caller takes one (a lock, a pop),
// uses it with no lock held, and gives it back. So a slow statement never holds a lock another
// caller waits on, and two callers never share a connection.
import Pipeline
import Synchronization

/// Idle connections to `path`, opened as needed and kept up to ``idleLimit``.
final class ConnectionPool: Sendable {
  /// Most idle connections kept; more are closed when given back.
  static let idleLimit = 4

  private let path: String
  private let busyTimeout: Int32
  private let idle = Mutex<[SQLiteConnection]>([])

  /// A pool whose connections wait `busyTimeout` ms for another connection's lock.
  init(path: String, busyTimeout: Int32) {
    self.path = path
    self.busyTimeout = busyTimeout
  }

  /// Runs `body` with a connection of its own: an idle one, or one opened now.
  func withConnection<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    let connection: SQLiteConnection
    if let reused = idle.withLock({ $0.popLast() }) {
      connection = reused
    } else {
      // Never creating the file: it exists once the store is open, and one deleted since must not
      // come back empty.
      connection = try SQLiteConnection(path: path, access: .readWrite(create: false), busyTimeout: busyTimeout)
    }
    defer { giveBack(connection) }
    return try body(connection)
  }

  /// Closes every idle connection (they close when released, outside the lock).
  func drain() {
    let closing = idle.withLock { idle -> [SQLiteConnection] in
      defer { idle.removeAll() }
      return idle
    }
    _ = closing
  }

  private func giveBack(_ connection: SQLiteConnection) {
    // A connection beyond the limit is returned from the lock and released after it.
    let surplus = idle.withLock { idle -> SQLiteConnection? in
      guard idle.count < Self.idleLimit else { return connection }
      idle.append(connection)
      return nil
    }
    _ = surplus
  }
}
