// The rules of RateLimiter without the locking and the waiting: which grants are in the window,
// who is at the head of the line, and who is resumed when a permit frees or a waiter leaves.
// RateLimiter holds it in a lock and performs the returned actions after releasing the lock.

/// The bookkeeping of a sliding-window rate limiter with a FIFO line of waiters.
///
/// Only the head of the line sleeps on the clock (in its own task); the others are suspended on
/// continuations until they move up. A waiter is `reserved` between taking its place and
/// registering its continuation, so a promotion or a cancellation in that gap is remembered.
struct RateLimiterStateMachine<Instant: InstantProtocol> where Instant.Duration == Duration {
  typealias Continuation = UnsafeContinuation<Turn, any Error>

  /// What a waiter does when its turn comes.
  enum Turn: Sendable {
    /// It has its permit: return.
    case granted
    /// It heads the line: sleep until this instant, when the oldest permit in the window frees.
    case sleep(until: Instant)
  }

  enum AcquireAction {
    /// A permit is free and nobody waits: it is taken, return.
    case proceed
    /// Nobody waits but no permit is free: the caller heads the line; sleep, then ``headWoke``.
    case sleep(id: UInt64, until: Instant)
    /// Others wait: suspend on a continuation registered with ``register(_:continuation:)``;
    /// the permit is expected at `expected` if nobody ahead leaves.
    case wait(id: UInt64, expected: Instant)
  }

  enum HeadWokeAction {
    /// The permit is taken; resume these waiters (those granted too, then the new head).
    case proceed(resuming: [(Continuation, Turn)])
    /// The clock woke the head early (a clock that does not keep its deadlines): sleep again.
    case sleepAgain(until: Instant)
  }

  private enum Waiter {
    /// Has its place in line, continuation not yet registered.
    case reserved
    case suspended(Continuation)
    /// Its turn came before it registered: registration returns this turn at once.
    case ready(Turn)
    /// Cancelled before it registered: registration throws at once.
    case cancelledEarly
  }

  private var window: GrantWindow<Instant>
  /// The waiter whose task sleeps until the next permit frees; nil when nobody waits.
  private var head: UInt64?
  /// Waiters behind the head, first come first; each is `reserved` or `suspended`.
  private var line: [UInt64] = []
  private var waiters: [UInt64: Waiter] = [:]
  private var lastID: UInt64 = 0

  init(permits: Int, window: Duration) {
    self.window = GrantWindow(permits: permits, window: window)
  }

  /// A caller asks for a permit at `now`.
  mutating func acquire(now: Instant) -> AcquireAction {
    lastID &+= 1
    guard head == nil else {
      // Others wait: queue behind them, even if a permit has just freed (it is theirs).
      line.append(lastID)
      waiters[lastID] = .reserved
      // Positions in line: the head is 0, so this caller is line.count.
      return .wait(id: lastID, expected: window.expectedGrant(forPosition: line.count, after: now))
    }
    if let deadline = window.nextFree(after: now) {
      // Nobody waits and the window is full: this caller heads the line.
      head = lastID
      return .sleep(id: lastID, until: deadline)
    }
    // Nobody waits and a permit is free.
    window.record(now)
    return .proceed
  }

  /// A queued caller registers its continuation; returns what to resume it with at once, if any.
  mutating func register(_ id: UInt64, continuation: Continuation) -> Result<Turn, any Error>? {
    switch waiters[id] {
    case .reserved:
      // The usual path: wait for its turn.
      waiters[id] = .suspended(continuation)
      return nil
    case .ready(let turn):
      // Its turn came while it was registering.
      waiters[id] = nil
      return .success(turn)
    case .cancelledEarly:
      // Cancelled while it was registering.
      waiters[id] = nil
      return .failure(CancellationError())
    case .suspended, nil:
      preconditionFailure("Internal inconsistency: waiter \(id) registered twice or never queued")
    }
  }

  /// A queued caller's task was cancelled; returns its continuation to resume with
  /// `CancellationError`, if it was suspended. Those behind it move up.
  mutating func cancel(_ id: UInt64) -> Continuation? {
    switch waiters[id] {
    case .reserved:
      // Not registered yet: leave the line now, throw on registration.
      line.removeAll { $0 == id }
      waiters[id] = .cancelledEarly
      return nil
    case .suspended(let continuation):
      // Leave the line at once.
      line.removeAll { $0 == id }
      waiters[id] = nil
      return continuation
    case .ready, .cancelledEarly, nil:
      // Already given its turn (a head's sleep throws by itself) or already cancelled.
      return nil
    }
  }

  /// The head's sleep ended at `now`: take its permit and move the line up.
  mutating func headWoke(_ id: UInt64, now: Instant) -> HeadWokeAction {
    precondition(head == id, "Internal inconsistency: waiter \(id) woke but \(String(describing: head)) heads")
    if let deadline = window.nextFree(after: now) { return .sleepAgain(until: deadline) }
    window.record(now)
    head = nil
    return .proceed(resuming: promote(now: now))
  }

  /// The head's sleep was cancelled: it leaves without a permit and the next waiter heads.
  mutating func headCancelled(_ id: UInt64, now: Instant) -> [(Continuation, Turn)] {
    precondition(head == id, "Internal inconsistency: waiter \(id) left but \(String(describing: head)) heads")
    head = nil
    return promote(now: now)
  }

  /// Grants every permit free at `now` to the first in line, then makes the next one the head.
  private mutating func promote(now: Instant) -> [(Continuation, Turn)] {
    var resumptions: [(Continuation, Turn)] = []
    while head == nil, !line.isEmpty {
      let id = line.removeFirst()
      let turn: Turn
      if let deadline = window.nextFree(after: now) {
        head = id
        turn = .sleep(until: deadline)
      } else {
        window.record(now)
        turn = .granted
      }
      switch waiters[id] {
      case .suspended(let continuation):
        // The usual path: wake it with its turn.
        waiters[id] = nil
        resumptions.append((continuation, turn))
      case .reserved:
        // Still registering: it finds its turn there.
        waiters[id] = .ready(turn)
      case .ready, .cancelledEarly, nil:
        preconditionFailure("Internal inconsistency: waiter \(id) in line after its turn or cancellation")
      }
    }
    return resumptions
  }
}

/// The instants of the last `permits` grants, oldest first, in a ring.
private struct GrantWindow<Instant: InstantProtocol> where Instant.Duration == Duration {
  let permits: Int
  let window: Duration
  private var grants: [Instant] = []
  private var oldest = 0

  init(permits: Int, window: Duration) {
    self.permits = max(1, permits)
    self.window = window
    grants.reserveCapacity(self.permits)
  }

  /// The instant at which the next permit frees, or nil when one is free at `now`.
  func nextFree(after now: Instant) -> Instant? {
    guard grants.count == permits else { return nil }
    let frees = grants[oldest].advanced(by: window)
    return frees <= now ? nil : frees
  }

  /// When the waiter at `position` in line (the head is 0) gets its permit if nobody leaves:
  /// each waiter takes the permit the grant `permits` places before it frees, a window later.
  /// Never before `now`.
  func expectedGrant(forPosition position: Int, after now: Instant) -> Instant {
    guard grants.count == permits, window > .zero else { return now }
    let freed = grants[(oldest + position) % permits]
    let expected = freed.advanced(by: window * (position / permits + 1))
    return max(expected, now)
  }

  mutating func record(_ now: Instant) {
    if grants.count < permits {
      grants.append(now)
    } else {
      grants[oldest] = now
      oldest = (oldest + 1) % permits
    }
  }
}
