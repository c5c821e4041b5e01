// Deterministic virtual time: async code runs on one thread, one job at a time, and time jumps
// to the next deadline only when nothing can run. The same input gives the same output, event
// for event, on every run and every machine.
import Synchronization

/// Runs async code in virtual time, deterministically.
///
/// Useful for testing anything that waits on a clock (debounce, timeouts, retries, simulated
/// latency) in exact milliseconds, and for replaying recorded input faster than real time.
///
/// Tasks started with ``start(_:)`` or ``run(_:)`` prefer the runner's task executor, so their
/// jobs, and those of their child tasks, task groups and default actors, are queued for the
/// thread that drives the runner and run there one at a time. Time is ``clock``, a
/// ``ManualClock``: it moves only when the runner is driven.
///
/// ```swift
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock
/// let (input, feed) = AsyncStream.makeStream(of: String.self)
/// let seen = Recorder<String>()
/// let task = runner.start {
///   for await text in input.debounce(for: .milliseconds(300), clock: clock) { seen.append(text) }
/// }
/// feed.yield("tay")
/// runner.advance(to: .milliseconds(299))   // seen.values == []
/// runner.advance(to: .milliseconds(300))   // seen.values == ["tay"]
/// feed.finish()
/// try runner.finish(task)
/// ```
///
/// ## Ordering
/// - Driving first runs every queued job, and every job those enqueue, until none is left
///   (quiescence). Only then may time move, to the earliest sleeper's deadline, where the
///   sleepers due at that instant wake in (deadline, registration) order; then jobs run again.
/// - ``advance(to:)`` is inclusive: a deadline equal to the target instant fires.
///
/// ## What escapes it
/// Unstructured tasks do not inherit an executor preference: start them with
/// `Task(inheritingExecutor:)`, which keeps them on the runner. Work that does not run on the
/// task executor is not ordered by the runner: `@MainActor` code, actors with custom executors,
/// `Task.detached`, and real I/O completing on other threads. Jobs such work enqueues here run
/// when the runner is next driven, so results that depend on it are no longer deterministic.
/// Feed input from the driving thread instead, as replay does.
///
/// ## Caveats
/// Drive a runner from one thread at a time. The driving calls block that thread.
public final class VirtualTimeRunner: Sendable {
  /// The runner's clock. Hand it to the code under test.
  public let clock: ManualClock
  let executor = VirtualExecutor()

  /// Creates a runner whose clock starts at `now`.
  public init(now: ManualClock.Instant = .zero) {
    clock = ManualClock(now: now)
  }

  /// The current virtual time.
  public var now: ManualClock.Instant { clock.now }

  /// How many jobs wait to run; zero whenever a driving call has returned, unless other threads
  /// enqueued work since.
  public var pendingJobCount: Int { executor.pendingJobCount }

  /// Starts `body` as a task on the runner. It runs only when the runner is driven.
  public func start<Result: Sendable>(
    _ body: @escaping @Sendable () async throws -> Result
  ) -> VirtualTask<Result> {
    let outcome = VirtualTask<Result>.Outcome()
    let task = Task(executorPreference: executor) { [executor] in
      do {
        let value = try await InheritedExecutor.$preferred.withValue(executor) { try await body() }
        outcome.state.withLock { $0 = .finished(.success(value)) }
      } catch {
        outcome.state.withLock { $0 = .finished(.failure(error)) }
      }
    }
    return VirtualTask(outcome: outcome, task: task)
  }

  /// Runs jobs until none is left, without moving time. Work marked with
  /// ``withExternalWork(_:)`` that is still in flight is waited for, blocking.
  public func runUntilIdle() {
    repeat {
      executor.runPendingJobs()
    } while executor.waitForExternalWork()
  }

  /// Runs everything due up to and including `instant`, moving time deadline by deadline, and
  /// leaves the clock at `instant`.
  public func advance(to instant: ManualClock.Instant) {
    runUntilIdle()
    while clock.wakeEarliest(notAfter: instant) {
      runUntilIdle()
    }
    clock.setNow(instant)
    runUntilIdle()
  }

  /// Runs everything due within `duration` from now; see ``advance(to:)``.
  public func advance(by duration: Duration) {
    advance(to: now.advanced(by: duration))
  }

  /// Runs `task` to its end, moving time to each next deadline whenever nothing can run.
  ///
  /// - Returns: what the task's body returned.
  /// - Throws: what the body threw, or ``VirtualTimeStall`` when nothing can run, no sleeper
  ///   waits and the task has not finished (it waits for something that can never happen in
  ///   virtual time, such as real I/O or a continuation nobody resumes).
  public func finish<Result: Sendable>(_ task: VirtualTask<Result>) throws -> Result {
    while true {
      runUntilIdle()
      if let result = task.result { return try result.get() }
      guard clock.wakeEarliest(notAfter: ManualClock.Instant(offset: .seconds(Int64.max))) else {
        throw VirtualTimeStall(now: clock.now, pendingJobCount: executor.pendingJobCount)
      }
    }
  }

  /// Starts `body` on the runner and runs it to its end in virtual time; see ``finish(_:)``.
  public func run<Result: Sendable>(
    _ body: @escaping @Sendable () async throws -> Result
  ) throws -> Result {
    try finish(start(body))
  }
}

/// A task started on a ``VirtualTimeRunner``.
public struct VirtualTask<Success: Sendable>: Sendable {
  final class Outcome: Sendable {
    enum State { case running, finished(Result<Success, any Error>) }
    let state = Mutex(State.running)
  }

  let outcome: Outcome
  let task: Task<Void, Never>

  /// The body's result once it has finished, nil while it runs.
  public var result: Result<Success, any Error>? {
    outcome.state.withLock { state in
      if case .finished(let result) = state { return result }
      return nil
    }
  }

  /// Whether the body has finished.
  public var isFinished: Bool { result != nil }

  /// Cancels the task. Its reaction runs when the runner is next driven.
  public func cancel() { task.cancel() }
}

/// Thrown when a virtual-time run can make no progress: no job can run, no sleeper waits, and
/// the body has not finished.
public struct VirtualTimeStall: Error, CustomStringConvertible {
  /// The virtual time at which the run stalled.
  public let now: ManualClock.Instant
  /// Jobs that other threads enqueued meanwhile (normally zero).
  public let pendingJobCount: Int

  public var description: String {
    "Virtual time stalled at \(now): no job can run and no sleeper waits, but the task has not "
      + "finished. It awaits something virtual time cannot produce (real I/O, an unresumed "
      + "continuation, an input stream nobody finishes); feed or finish that input from the "
      + "driving thread, or cancel the task."
  }
}
