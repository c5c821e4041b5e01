// One request budget for every run and process that uses the same store: each request is
// recorded, with its wall-clock instant, before it is sent, so a process starting now sees what
// the others sent in the last window.
import Streams

/// At most `limit.permits` requests per `limit.window` to one source, counted over every process
/// that shares the store, with the same sliding-window rule as ``RateLimiter``.
///
/// Consulted after the process's own ``RateLimiter`` (which keeps its callers in line, first come
/// first served): the limiter orders this process's requests, the budget adds those of others.
///
/// ## The rule
/// A request recorded at `t` counts until exactly `t + window`. ``acquire()`` checks and records
/// in one `BEGIN IMMEDIATE` transaction, so two processes can never both take the last permit.
/// When the window is full it waits (on the store's wall clock) until the oldest request in it
/// leaves, then tries again.
///
/// ## Cancellation
/// A waiting caller whose task is cancelled throws `CancellationError` and records nothing.
///
/// ## Caveats
/// A store that is off (or a lock held by another process beyond the busy timeout) lets the
/// request through: the process's own limiter still applies. Waits are real time, also during a
/// replay (the replay's virtual time stands still meanwhile), since the service's budget is real.
final class SharedRateBudget: Sendable {
  /// What a reservation found.
  enum Reservation: Equatable {
    /// The request is recorded: send it.
    case recorded
    /// The window is full until this many milliseconds from now.
    case fullFor(Int64)
  }

  private let store: AnswerStore
  private let name: String
  private let permits: Int
  private let window: Int64

  init(store: AnswerStore, name: String, limit: RateLimit) {
    self.store = store
    self.name = name
    permits = max(1, limit.permits)
    window = max(1, limit.window.wholeMilliseconds)
  }

  /// Waits until the shared window has room, then records one request sent now.
  ///
  /// - Throws: `CancellationError` when the task is cancelled while waiting.
  func acquire() async throws {
    while true {
      try Task.checkCancellation()
      guard case .fullFor(let wait) = reserve(at: store.wallClock.millisecondsSinceEpoch) else { return }
      try await withExternalWork { try await store.wallClock.sleep(for: .milliseconds(wait)) }
    }
  }

  /// Records a request at `now` if fewer than `permits` were recorded in `(now - window, now]`.
  func reserve(at now: Int64) -> Reservation {
    let reservation = store.withReader { (connection: SQLiteConnection) throws(SQLiteError) -> Reservation in
      try connection.inImmediateTransaction { () throws(SQLiteError) -> Reservation in
        // Requests older than any window worth keeping are forgotten here, by whoever sends next.
        try connection.query(
          "DELETE FROM requests WHERE budget = ? AND sent_at <= ?",
          [.text(name), .integer(now - max(window, 3_600_000))])
        let since: [SQLiteValue] = [.text(name), .integer(now - window)]
        let inWindow =
          try connection.integer(
            "SELECT count(*) FROM requests WHERE budget = ? AND sent_at > ?", since) ?? 0
        guard inWindow >= permits else {
          try connection.query("INSERT INTO requests (budget, sent_at) VALUES (?, ?)", [.text(name), .integer(now)])
          return .recorded
        }
        // The permit frees when the request `inWindow - permits` places after the oldest leaves.
        let frees =
          try connection.integer(
            "SELECT sent_at FROM requests WHERE budget = ? AND sent_at > ? ORDER BY sent_at LIMIT 1 OFFSET ?",
            since + [.integer(inWindow - Int64(permits))]) ?? now
        return .fullFor(max(1, frees + window - now))
      }
    }
    return reservation ?? .recorded
  }
}
