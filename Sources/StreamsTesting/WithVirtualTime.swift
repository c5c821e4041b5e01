// A fresh VirtualTimeRunner per test, and a test failure (not a silent early stop) when one of
// its non-throwing driving calls could not finish.
import Streams
import Testing

/// Runs `body` with a fresh `VirtualTimeRunner` that orders main-actor jobs from the
/// start (`mainActorOrdering: .always`), then records a test issue if a
/// driving call stopped early (the runner's `interruption`).
///
/// Useful as the frame of a virtual-time test: `advance(to:)` and `runUntilIdle()` do not
/// throw, so without it a bound they reach (the watchdog, outside work that never ends) would
/// show only as a wrong value.
///
/// ```swift
/// @Test func emitsAtTheDeadline() throws {
///   try withVirtualTime { runner in
///     let clock = runner.clock
///     let woke = Recorder<Int64>()
///     let task = runner.start {
///       try await clock.sleep(for: .milliseconds(500))
///       woke.append(clock.now.milliseconds)
///     }
///     runner.advance(to: .milliseconds(499)); #expect(woke.values.isEmpty)
///     runner.advance(to: .milliseconds(500)); #expect(woke.values == [500])
///     try runner.finish(task)
///   }
/// }
/// ```
///
/// - Parameters:
///   - horizon: the runner's virtual-time horizon per `finish`/`run` (1 hour by default).
///   - watchdog: the real time each driving call may take (60 s by default): the test's bound.
///   - sourceLocation: where a test issue is recorded when a driving call stopped early: the
///     caller's line by default.
///   - body: the test, handed the runner; what it returns or throws, this returns or throws.
public func withVirtualTime<Result>(
  horizon: Duration? = .seconds(3_600), watchdog: Duration? = .seconds(60),
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (VirtualTimeRunner) throws -> Result
) rethrows -> Result {
  let runner = VirtualTimeRunner(horizon: horizon, watchdog: watchdog, mainActorOrdering: .always)
  let result = try body(runner)
  recordInterruption(of: runner, at: sourceLocation)
  return result
}

/// The async form of `withVirtualTime`, for an async test body, `@MainActor` ones included:
/// drive with `await runner.drive(…)`.
public func withVirtualTime<Result>(
  horizon: Duration? = .seconds(3_600), watchdog: Duration? = .seconds(60),
  isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (VirtualTimeRunner) async throws -> Result
) async rethrows -> Result {
  let runner = VirtualTimeRunner(horizon: horizon, watchdog: watchdog, mainActorOrdering: .always)
  let result = try await body(runner)
  recordInterruption(of: runner, at: sourceLocation)
  return result
}

private func recordInterruption(of runner: VirtualTimeRunner, at sourceLocation: SourceLocation) {
  guard let interruption = runner.interruption else { return }
  Issue.record(Comment(rawValue: interruption.description), sourceLocation: sourceLocation)
}
