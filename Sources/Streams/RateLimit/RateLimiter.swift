// A sliding-window rate limiter on an injected clock: callers wait, first come first served,
// until the window has room, e.g. to keep a fetcher under a service's "20 requests a minute".
import Synchronization

/// Lets at most `permits` callers through per `window` of time on `clock`; the others wait in
/// line, first come first served.
///
/// Useful in front of a service with a request quota: call ``acquire()`` before each request.
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock                // ContinuousClock() in production
/// let limiter = RateLimiter(permits: 2, per: .seconds(1), clock: clock)
/// let sentAt = try runner.run {
///   var sentAt: [Int64] = []
///   for _ in 0..<3 {
///     try await limiter.acquire()         // the 3rd call inside a second waits here
///     sentAt.append(clock.now.milliseconds)   // send the request now
///   }
///   return sentAt
/// }
/// // sentAt == [0, 0, 1_000]
/// ```
///
/// In a test, use a ``VirtualTimeRunner``'s clock and check the exact instants:
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let limiter = RateLimiter(permits: 20, per: .seconds(60), clock: runner.clock)
/// try runner.run { for _ in 0..<20 { try await limiter.acquire() } }   // all at 0 ms
/// try runner.run { try await limiter.acquire() }
/// // runner.now == .milliseconds(60_000)
/// ```
///
/// ## The rule: a sliding window
/// A permit granted at instant `t` is in use until exactly `t + window` and free from then on.
/// A caller gets a permit at `now` when fewer than `permits` were granted in `(now - window, now]`
/// and nobody waits before it. With 20 permits per 60 s all taken at 0 ms, the 21st caller
/// proceeds at exactly 60,000 ms (not at 59,999 ms), the 41st at 120,000 ms, and so on. (This is
/// the package's one rate rule, `RateRule`, for requests that end as their permit is granted; a
/// permit held until its request ends frees a window after that end.)
///
/// ## Ordering
/// Waiters get their permits in the order they called ``acquire()``. A caller that finds others
/// waiting queues behind them, even when a permit has just freed: it is theirs. Several permits
/// freeing at the same instant go to the first waiters in line, in that order.
///
/// ## Cancellation
/// A waiting caller whose task is cancelled throws `CancellationError` at once and gives its
/// place back: everyone behind it moves up, and if it headed the line the next waiter heads it
/// and waits for the same instant. A caller whose task is already cancelled throws at once
/// without taking a permit. A permit once granted is not given back.
///
/// ## Cost
/// Only the head of the line sleeps on the clock, once, until the oldest permit in the window
/// frees; the others are suspended until they move up. No polling.
///
/// ## Caveats
/// `permits` below 1 counts as 1. A `window` of zero or less limits nothing.
public final class RateLimiter<C: Clock>: RatePermits, Sendable where C.Duration == Duration {
  private typealias StateMachine = RateLimiterStateMachine<C.Instant>

  private let clock: C
  private let state: Mutex<StateMachine>

  /// Creates a limiter that lets `permits` callers through per `window` on `clock`.
  public init(permits: Int, per window: Duration, clock: C) {
    self.clock = clock
    state = Mutex(StateMachine(permits: permits, window: window))
  }

  /// Waits until a permit is free and this caller's turn has come, then takes the permit.
  ///
  /// Returns when the caller holds a permit; at once if one is free and nobody waits.
  ///
  /// - Throws: `CancellationError` when the task is cancelled before or while waiting; the
  ///   caller then holds no permit and its place in line goes to those behind it.
  public func acquire() async throws {
    try await acquire(onWait: { _ in })
  }

  /// Like ``acquire()``, and when the caller has to wait, first tells `onWait` when its permit
  /// is expected: the instant it would be granted if nobody ahead of it leaves the line.
  ///
  /// `onWait` is called at most once, synchronously, before the caller suspends; never when a
  /// permit is free at once. The estimate is exact for the head of the line and for those whose
  /// turn comes within one window; waiters who leave the line only make it come sooner.
  ///
  /// ```swift
  /// let runner = VirtualTimeRunner()
  /// let limiter = RateLimiter(permits: 1, per: .seconds(60), clock: runner.clock)
  /// let expected = Mutex<ManualClock.Instant?>(nil)
  /// try runner.run {
  ///   try await limiter.acquire()                               // free: onWait is not called
  ///   try await limiter.acquire { at in expected.withLock { $0 = at } }   // waits a minute
  /// }
  /// // expected == .milliseconds(60_000), and so is runner.now
  /// ```
  public func acquire(onWait: (C.Instant) -> Void) async throws {
    _ = try await take(untilFinished: false, onWait: onWait)
  }

  /// Like ``acquire(onWait:)``, but the permit is held until its request ends: it frees a window
  /// after ``HeldPermit/finish(mayStillArrive:)`` (``RateRule``), not a window after its grant.
  package func acquireUntilFinished(onWait: (C.Instant) -> Void) async throws -> HeldPermit {
    let id = try await take(untilFinished: true, onWait: onWait)
    return HeldPermit { [self] mayStillArrive in
      let now = clock.now
      let end = mayStillArrive ? now.advanced(by: RateRule<C.Instant>.unansweredMargin) : now
      state.withLock { $0.finish(id, at: end) }
    }
  }

  /// Waits for a permit and takes it; returns its identifier.
  private func take(untilFinished: Bool, onWait: (C.Instant) -> Void) async throws -> UInt64 {
    try Task.checkCancellation()
    let now = clock.now
    let id: UInt64
    var turn: StateMachine.Turn
    switch state.withLock({ $0.acquire(now: now, untilFinished: untilFinished) }) {
    case .proceed(let permit):
      return permit
    case .sleep(let headID, let deadline):
      id = headID
      onWait(deadline)
      turn = .sleep(until: deadline)
    case .wait(let waiterID, let expected):
      id = waiterID
      onWait(expected)
      turn = try await waitForTurn(waiterID)
    }
    // At the head of the line: one sleep until the oldest permit frees (again only if a clock
    // woke it early).
    while case .sleep(let deadline) = turn {
      do {
        try await clock.sleep(until: deadline, tolerance: nil)
      } catch {
        let now = clock.now
        resume(state.withLock { $0.headCancelled(id, now: now) })
        throw error
      }
      let now = clock.now
      switch state.withLock({ $0.headWoke(id, now: now) }) {
      case .proceed(let resumptions):
        resume(resumptions)
        turn = .granted
      case .sleepAgain(let later):
        turn = .sleep(until: later)
      }
    }
    return id
  }

  /// Suspends a queued caller until its turn comes, or throws when its task is cancelled.
  private func waitForTurn(_ id: UInt64) async throws -> StateMachine.Turn {
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: StateMachine.Continuation) in
        let immediate = state.withLock { $0.register(id, continuation: continuation) }
        if let immediate { continuation.resume(with: immediate) }
      }
    } onCancel: {
      state.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
    }
  }

  /// Wakes waiters whose turn came, outside the lock, first in line first.
  private func resume(_ resumptions: [(StateMachine.Continuation, StateMachine.Turn)]) {
    for (continuation, turn) in resumptions { continuation.resume(returning: turn) }
  }
}
