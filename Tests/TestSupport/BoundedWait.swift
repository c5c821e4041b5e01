// A wait with a real-time bound, for a test that must fail rather than hang when what it waits
// for never happens. The bound is a generous "eventually", never a measure of how fast the machine
// is: what must happen "at once" is shown by an event, not by a short bound.
import Dispatch
import Synchronization

/// How long a real-time wait goes on before the test calls what it waits for a hang: 5 minutes,
/// far beyond anything a loaded two-core machine takes, so it never decides a verdict; and well
/// inside a suite's 10-minute time limit, so the test fails with its own message, not the limit's.
public let hangBound: Duration = .seconds(300)

/// The result of `wait` as soon as it comes, or nil once `bound` of real time has passed without
/// it. The wait is not cancelled then: it goes on in the background until it ends by itself (a
/// server's waits end when it stops, a child's when it exits).
public func resultOf<T: Sendable>(_ wait: @escaping @Sendable () async -> T, within bound: Duration) async -> T? {
  await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
    let once = ResumeOnce(continuation)
    DispatchQueue.global().asyncAfter(deadline: .now() + dispatchInterval(bound)) { once.resume(returning: nil) }
    Task { once.resume(returning: await wait()) }
  }
}

/// The first answer of `probe`, asked again after each pause of `interval`; nil once `bound` of
/// real time has passed without one. For a state of another process that no event announces (a
/// server's health, what a scraper has read): `interval` is how often to look, never a verdict's
/// timing. The asking ends with the bound, so a failed test leaves nothing polling behind it.
public func poll<T: Sendable>(
  every interval: Duration, within bound: Duration = hangBound, _ probe: () async -> T?
) async -> T? {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: bound)
  while true {
    if let answer = await probe() { return answer }
    guard clock.now < deadline, (try? await clock.sleep(for: interval)) != nil else { return nil }
  }
}

/// `duration` as Dispatch counts time, to the nanosecond.
public func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
  let (seconds, attoseconds) = duration.components
  return .nanoseconds(Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
}

/// A continuation resumed by whichever of several callers comes first; the others do nothing.
private final class ResumeOnce<T: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<T, Never>?>

  init(_ continuation: CheckedContinuation<T, Never>) {
    self.continuation = Mutex(continuation)
  }

  /// Resumes the continuation, after the lock is released, the first time only.
  func resume(returning value: T) {
    continuation.withLock { $0.take() }?.resume(returning: value)
  }
}
