// Why a virtual-time run stopped without finishing: the error a test sees instead of a hang.
// It says what was still queued, asleep or outside, and what to do next.

/// Thrown (or kept in ``VirtualTimeRunner/interruption``) when a driving call of a
/// ``VirtualTimeRunner`` cannot finish: nothing can run, or a bound was reached.
public struct VirtualTimeStall: Error, CustomStringConvertible, Sendable {
  /// What stopped the run.
  public enum Reason: Sendable, Equatable {
    /// No job can run, no sleeper waits and no outside work is in flight, but the task has not
    /// finished: it awaits something virtual time cannot produce.
    case nothingToRun
    /// ``VirtualTimeRunner/finish(_:)`` or ``VirtualTimeRunner/run(_:)`` would move time past
    /// its horizon (the virtual time one call may cover), typically an endless timer loop.
    case horizonReached(Duration)
    /// The driving call took more real time than the runner's watchdog allows: work that keeps
    /// running without moving time, or outside work (real I/O) that does not end.
    case watchdogFired(Duration)
    /// The main queue did not run the runner's round within the watchdog: the main thread is
    /// blocked, or the process does not run its main queue.
    case mainQueueUnresponsive(Duration)
  }

  /// What stopped the run.
  public let reason: Reason
  /// The virtual time at which the run stopped.
  public let now: ManualClock.Instant
  /// Jobs still queued on the runner.
  public let pendingJobCount: Int
  /// Sleepers waiting on the runner's clock (``ManualClock/sleeperCount``): tasks asleep and
  /// scheduled calls together.
  public let sleeperCount: Int
  /// How many of those sleepers are scheduled calls (``ManualClock/scheduledCallCount``): the
  /// timers of the operators and of `withTimeout`, with no task.
  public let scheduledCallCount: Int
  /// The earliest of their deadlines.
  public let nextDeadline: ManualClock.Instant?
  /// Outside work (``withExternalWork(_:)``) still in flight and awake.
  public let externalWorkInFlight: Int
  /// Whether the call was made on the main thread, where main-actor jobs cannot run meanwhile.
  public let drivenOnMainThread: Bool
  /// Sleeps on the runner's clock by tasks outside the run, which the runner cannot order
  /// (``VirtualTimeRunner/sleepsFromOutsideTheRun``).
  public let sleepsFromOutsideTheRun: Int

  public var description: String {
    var text = "Virtual time stopped at \(now): "
    switch reason {
    case .nothingToRun:
      text += "no job can run, no sleeper waits and no outside work is in flight, but the task has not finished."
    case .horizonReached(let horizon):
      text +=
        "the next deadline is more than the horizon (\(horizon.millisecondsDescription)) after the call began; "
        + "this is usually a timer loop that never ends. Cancel it (or finish its input), or raise `horizon:`."
    case .watchdogFired(let limit):
      text +=
        "the call ran \(limit.millisecondsDescription) of real time without finishing; work keeps running without "
        + "moving time (a loop that only yields), or outside work does not end."
    case .mainQueueUnresponsive(let limit):
      text +=
        "the main queue did not run the runner's round within \(limit.millisecondsDescription): the main thread "
        + "is blocked, or this process does not run its main queue. Pass `mainActorOrdering: .never`."
    }
    text +=
      " Still queued: \(pendingJobCount) job(s); waiting on the clock: \(sleeperCount - scheduledCallCount) "
      + "task(s) asleep and \(scheduledCallCount) scheduled call(s)"
    if let nextDeadline { text += " (next at \(nextDeadline))" }
    text += "; outside work in flight: \(externalWorkInFlight)."
    if sleepsFromOutsideTheRun > 0 {
      text +=
        " \(sleepsFromOutsideTheRun) sleep(s) on the runner's clock came from tasks outside the run, which it "
        + "cannot order: start them from the test's body inside `withVirtualTime` or `runner.hosting`, or "
        + "from a task of the runner."
    }
    if drivenOnMainThread {
      text +=
        " The call was made on the main thread, so @MainActor code could not run meanwhile: make the "
        + "test async and use `await runner.drive(…)`."
    }
    text +=
      " Usual causes: Task.sleep or a ContinuousClock where the runner's clock belongs (real time "
      + "does not move in virtual time); Task.detached or work started outside the runner; an input "
      + "stream nobody finishes or a continuation nobody resumes. Feed or finish that input from the "
      + "driving thread, or cancel the task."
    return text
  }
}
