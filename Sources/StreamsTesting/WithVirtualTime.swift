// A fresh VirtualTimeRunner per test, and a test failure (not a silent early stop, nor a silent
// race) when one of its non-throwing driving calls could not finish or a task outside the run
// slept on its clock.
import Streams
import Testing

/// Runs `body` with a fresh `VirtualTimeRunner` that orders main-actor jobs from the
/// start (`mainActorOrdering: .always`), then records a test issue if a
/// driving call stopped early (the runner's `interruption`), and one if a task outside the run
/// slept on the runner's clock (`sleepsFromOutsideTheRun`).
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
  recordIssues(of: runner, at: sourceLocation)
  return result
}

/// The async form of `withVirtualTime`, for an async test body, `@MainActor` ones included:
/// drive with `await runner.drive(…)`.
///
/// The body is part of the run (`VirtualTimeRunner.hosting(_:)`): a `Task {}` that it starts,
/// or that the main-actor code it calls starts (a view model's timer started in its `init`),
/// runs what it awaits off the main actor on the runner, so a `@MainActor` model's loop is as
/// exact as any other code. Whenever the body waits, what is queued on the runner runs; time
/// moves only in `drive` calls.
///
/// ```swift
/// @MainActor @Test func refreshesEveryThirtySeconds() async {
///   await withVirtualTime { runner in
///     let model = DashboardModel(clock: runner.clock)  // its init starts the timer's `Task {}`
///     await runner.drive(until: .milliseconds(149_999))
///     #expect(model.refreshes == 4)
///     await runner.drive(until: .milliseconds(150_000))
///     #expect(model.refreshes == 5)
///     model.stop()
///   }
/// }
/// ```
///
/// It records a test issue, as the synchronous form does, when a driving call stopped early,
/// and when a task outside the run slept on the runner's clock
/// (`VirtualTimeRunner.sleepsFromOutsideTheRun`).
public func withVirtualTime<Result>(
  horizon: Duration? = .seconds(3_600), watchdog: Duration? = .seconds(60),
  isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (VirtualTimeRunner) async throws -> Result
) async rethrows -> Result {
  let runner = VirtualTimeRunner(horizon: horizon, watchdog: watchdog, mainActorOrdering: .always)
  let result = try await runner.hosting { try await body(runner) }
  recordIssues(of: runner, at: sourceLocation)
  return result
}

/// Records why the run went wrong, if it did: an early stop, sleeps the runner could not order.
private func recordIssues(of runner: VirtualTimeRunner, at sourceLocation: SourceLocation) {
  if let interruption = runner.interruption {
    Issue.record(Comment(rawValue: interruption.description), sourceLocation: sourceLocation)
  }
  let outside = runner.sleepsFromOutsideTheRun
  guard outside > 0 else { return }
  Issue.record(
    Comment(
      rawValue: "\(outside) sleep(s) on the runner's clock came from tasks outside the run, which the "
        + "runner cannot order: time may have moved before they got there. Start those tasks from the "
        + "test's body or from a task of the runner (`runner.drive { … }`), not from a block the main "
        + "queue runs by itself (`DispatchQueue.main.async`) or `Task.detached`."),
    sourceLocation: sourceLocation)
}
