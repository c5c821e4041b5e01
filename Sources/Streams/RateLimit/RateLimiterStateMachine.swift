// The bookkeeping of RateLimiter without the locking and the waiting: which permits are held (the
// rule that frees them is RateRule's), who is at the head of the line, and who is resumed when a
// permit frees or a waiter leaves.
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
    /// A permit is free and nobody waits: it is taken, as permit `id`; return.
    case proceed(id: UInt64)
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

  private var held: HeldPermits<Instant>
  /// The callers whose permit is held until ``finish(_:at:)`` rather than over at its grant.
  private var heldUntilFinished: Set<UInt64> = []
  /// The waiter whose task sleeps until the next permit frees; nil when nobody waits.
  private var head: UInt64?
  /// Waiters behind the head, first come first; each is `reserved` or `suspended`.
  private var line: [UInt64] = []
  private var waiters: [UInt64: Waiter] = [:]
  private var lastID: UInt64 = 0

  init(permits: Int, window: Duration) {
    held = HeldPermits(permits: permits, window: window)
  }

  /// A caller asks for a permit at `now`; with `untilFinished`, its request is over only at
  /// ``finish(_:at:)``, otherwise as the permit is granted.
  mutating func acquire(now: Instant, untilFinished: Bool = false) -> AcquireAction {
    lastID &+= 1
    if untilFinished { heldUntilFinished.insert(lastID) }
    guard head == nil else {
      // Others wait: queue behind them, even if a permit has just freed (it is theirs).
      line.append(lastID)
      waiters[lastID] = .reserved
      // Positions in line: the head is 0, so this caller is line.count.
      return .wait(id: lastID, expected: held.expectedGrant(forPosition: line.count, after: now))
    }
    if let deadline = held.nextFree(after: now) {
      // Nobody waits and the window is full: this caller heads the line.
      head = lastID
      return .sleep(id: lastID, until: deadline)
    }
    // Nobody waits and a permit is free.
    grant(lastID, at: now)
    return .proceed(id: lastID)
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
      heldUntilFinished.remove(id)
      waiters[id] = .cancelledEarly
      return nil
    case .suspended(let continuation):
      // Leave the line at once.
      line.removeAll { $0 == id }
      heldUntilFinished.remove(id)
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
    if let deadline = held.nextFree(after: now) { return .sleepAgain(until: deadline) }
    grant(id, at: now)
    head = nil
    return .proceed(resuming: promote(now: now))
  }

  /// The head's sleep was cancelled: it leaves without a permit and the next waiter heads.
  mutating func headCancelled(_ id: UInt64, now: Instant) -> [(Continuation, Turn)] {
    precondition(head == id, "Internal inconsistency: waiter \(id) left but \(String(describing: head)) heads")
    head = nil
    heldUntilFinished.remove(id)
    return promote(now: now)
  }

  /// The request of permit `id` is over at `end` (a window later it frees).
  mutating func finish(_ id: UInt64, at end: Instant) {
    held.finish(id, at: end)
  }

  /// Records the permit `id` takes at `now`: over at once, or held until it is finished.
  private mutating func grant(_ id: UInt64, at now: Instant) {
    held.record(id, at: now, ended: heldUntilFinished.remove(id) == nil ? now : nil)
  }

  /// Grants every permit free at `now` to the first in line, then makes the next one the head.
  private mutating func promote(now: Instant) -> [(Continuation, Turn)] {
    var resumptions: [(Continuation, Turn)] = []
    while head == nil, !line.isEmpty {
      let id = line.removeFirst()
      let turn: Turn
      if let deadline = held.nextFree(after: now) {
        head = id
        turn = .sleep(until: deadline)
      } else {
        grant(id, at: now)
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

/// The permits granted that may still be held, each by the caller that took it, and the rule
/// (``RateRule``) that says when each frees.
private struct HeldPermits<Instant: InstantProtocol> where Instant.Duration == Duration {
  private struct Held {
    let id: UInt64
    let granted: Instant
    var ended: Instant?
  }

  let rule: RateRule<Instant>
  private var held: [Held] = []

  init(permits: Int, window: Duration) {
    rule = RateRule(permits: permits, window: window)
    held.reserveCapacity(rule.permits)
  }

  private func releases(at now: Instant) -> [Instant] {
    held.map { rule.releaseInstant(granted: $0.granted, ended: $0.ended, now: now) }
  }

  /// The instant at which the next permit frees (at the earliest, for one whose request is in
  /// flight), or nil when one is free at `now`.
  func nextFree(after now: Instant) -> Instant? {
    switch rule.decide(releases: releases(at: now), now: now) {
    case .grant: nil
    case .fullUntil(let instant): instant
    }
  }

  /// When the waiter at `position` in line (the head is 0) gets its permit if nobody leaves.
  func expectedGrant(forPosition position: Int, after now: Instant) -> Instant {
    rule.expectedGrant(forPosition: position, releases: releases(at: now), now: now)
  }

  /// Records the permit `id` takes at `now`, its request over at `ended` when that is known;
  /// forgets those no longer held.
  mutating func record(_ id: UInt64, at now: Instant, ended: Instant?) {
    held.removeAll { entry in
      entry.ended.map { rule.releaseInstant(granted: entry.granted, ended: $0, now: now) <= now } ?? false
    }
    held.append(Held(id: id, granted: now, ended: ended))
  }

  /// Records that the request of permit `id` is over at `end`; nothing for a permit already over.
  mutating func finish(_ id: UInt64, at end: Instant) {
    guard let index = held.firstIndex(where: { $0.id == id }), held[index].ended == nil else { return }
    held[index].ended = end
  }
}
