// One request budget for every run and process that uses the same store: a request is recorded
// when its permit is granted and again when it ends, and ``BudgetRule`` decides, atomically in the
// store, whether the next may go. The budget waits for a store that is busy and never lets a request
// through behind its back; only a store that is off leaves the process to its own limiter.
import Foundation
import Streams
import Synchronization

/// At most `limit.permits` requests per `limit.window` to one source, counted over every process
/// that shares the store, by ``BudgetRule``.
///
/// Consulted after the process's own ``RateLimiter`` (which keeps its callers in line, first come
/// first served): the limiter orders this process's requests, the budget adds those of others.
///
/// ## Waiting
/// When the window is full, ``acquire(onWait:)`` tells `onWait` at once how long it expects to
/// wait (the first time only), then waits on the store's wall clock and asks again. While the
/// store is busy (another process holds its lock, or it is still being opened) it asks again every
/// ``busyPoll``, telling `onWait` the longest it will wait; if the store stays busy for
/// ``patience`` it is turned off, said once, and the process is held to its own limiter.
///
/// ## Cancellation
/// A waiting caller whose task is cancelled throws `CancellationError` and records nothing. A
/// permit is finished however its request ended, cancelled included: its end is what frees it.
///
/// ## Caveats
/// Waits are real time, also during a replay (the replay's virtual time stands still meanwhile),
/// since the service's budget is real.
final class SharedRateBudget: Sendable {
  /// How often a busy store is asked again: 20 ms.
  static let busyPoll: Duration = .milliseconds(20)
  /// How long a store may stay busy before it is given up for the run: 30 s.
  static let patience: Int64 = 30_000

  let store: any SharedStore
  let name: String
  let rule: BudgetRule
  /// Makes entry identifiers unique within the process; the process identifier and a random
  /// number make them unique between processes.
  private let counter = Mutex<UInt64>(0)
  private let prefix = "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"

  init(store: any SharedStore, name: String, limit: RateLimit) {
    self.store = store
    self.name = name
    rule = BudgetRule(limit)
  }

  /// Waits until the shared window has room, then records one request granted now; nil when the
  /// store is off (the process's own limiter is then the only one).
  ///
  /// - Parameter onWait: told once, at once, when the request must wait, about how long (at most
  ///   how long, while the store is busy).
  /// - Throws: `CancellationError` when the task is cancelled while waiting.
  func acquire(onWait: (@Sendable (Duration) -> Void)? = nil) async throws -> BudgetPermit? {
    var told = false
    var busySince: Int64?
    while true {
      try Task.checkCancellation()
      let now = store.wallClock.millisecondsSinceEpoch
      let wait: Int64
      switch await reserve(at: now) {
      case .success(.recorded(let entry)):
        return BudgetPermit(budget: self, id: entry.id)
      case .success(.fullFor(let milliseconds)):
        busySince = nil
        wait = milliseconds
        if !told { onWait?(.milliseconds(milliseconds)) }
      case .failure(.busy):
        let since = busySince ?? now
        busySince = since
        guard now - since < Self.patience else {
          store.turnOff(because: "it stayed busy (locked by another process) for \(Self.patience / 1_000) s")
          continue
        }
        wait = Self.busyPoll.wholeMilliseconds
        if !told { onWait?(.milliseconds(Self.patience - (now - since))) }
      case .failure(.off):
        return nil
      }
      told = true
      try await withExternalWork { try await store.wallClock.sleep(for: .milliseconds(wait)) }
    }
  }

  /// What a reservation found.
  enum Reservation: Equatable {
    /// The request is recorded: send it.
    case recorded(BudgetEntry)
    /// The window is full for this many milliseconds at least.
    case fullFor(Int64)
  }

  /// Records a request granted at `now` if the rule lets it go.
  func reserve(at now: Int64) async -> Result<Reservation, SharedStoreFailure> {
    let number = counter.withLock { counter -> UInt64 in
      counter += 1
      return counter
    }
    let id = "\(prefix)-\(number)"
    do throws(SharedStoreFailure) {
      let reservation = try await store.reserve(inBudget: name, since: rule.forgettable(before: now)) { entries in
        switch rule.decide(entries, now: now) {
        case .grant:
          let entry = BudgetEntry(id: id, grantedAt: now)
          return (Reservation.recorded(entry), record: entry)
        case .fullFor(let milliseconds):
          return (Reservation.fullFor(milliseconds), record: nil)
        }
      }
      return .success(reservation)
    } catch {
      return .failure(error)
    }
  }

  /// Records request `id` as over now, or ``BudgetRule/unansweredMargin`` from now when bytes of
  /// it may still be on their way; returns at once.
  func finish(_ id: String, mayStillArrive: Bool) {
    let now = store.wallClock.millisecondsSinceEpoch
    store.finishRequest(id, inBudget: name, endedAt: mayStillArrive ? now + BudgetRule.unansweredMargin : now)
  }
}

/// One request's place in a ``SharedRateBudget``: held from its grant until
/// ``finish(mayStillArrive:)``, and a window after.
final class BudgetPermit: Sendable {
  private let budget: SharedRateBudget
  private let id: String
  private let finished = Mutex(false)

  init(budget: SharedRateBudget, id: String) {
    self.budget = budget
    self.id = id
  }

  /// Records the request as over now, the first time it is called; returns at once.
  /// `mayStillArrive`: it ended without an answer (cancelled, timed out, its connection lost), so
  /// its bytes may still reach the server; false when its answer came back (any status) or it was
  /// never sent.
  func finish(mayStillArrive: Bool) {
    let first = finished.withLock { finished -> Bool in
      defer { finished = true }
      return !finished
    }
    if first { budget.finish(id, mayStillArrive: mayStillArrive) }
  }
}
