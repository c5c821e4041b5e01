// One call that drives a runner (`advance`, `runUntilIdle`, `finish`): the real-time deadline its
// watchdog sets, and where its steps run, here or on the main queue between main-actor jobs.
import Dispatch
import Synchronization

extension VirtualTimeRunner {
  /// One driving call: its real-time deadline and where its steps run.
  struct Drive: Sendable {
    let runner: VirtualTimeRunner
    let deadline: DispatchTime
    let onMainThread: Bool

    /// Whether steps run on the main queue, between main-actor jobs.
    var onMainQueue: Bool { !onMainThread && runner.ordersMainActor }

    init(runner: VirtualTimeRunner) {
      self.runner = runner
      deadline =
        runner.watchdog.map { DispatchTime.now() + DispatchTimeInterval.nanoseconds($0.wholeNanoseconds) }
        ?? .distantFuture
      onMainThread = MainQueue.isCurrent
    }

    /// Runs `work` here, or as a block on the main queue when main-actor jobs are ordered.
    /// Work runs as part of the run (``VirtualTimeRunner/onRunner(_:)``): a clock's scheduled call
    /// that fires here may start tasks, and they must be the runner's.
    func step<T: Sendable>(
      onMainQueue: Bool? = nil, _ work: @escaping @Sendable () -> T
    ) throws(VirtualTimeStall) -> T {
      guard onMainQueue ?? self.onMainQueue else { return runner.onRunner(work) }
      let result = Mutex<T?>(nil)
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.main.async { [runner] in
        let value = runner.onRunner(work)
        result.withLock { $0 = value }
        done.signal()
      }
      guard done.wait(timeout: deadline) == .success, let value = result.withLock({ $0 }) else {
        throw stall(.mainQueueUnresponsive(runner.watchdog ?? .zero))
      }
      return value
    }

    func checkWatchdog() throws(VirtualTimeStall) {
      if DispatchTime.now() >= deadline { throw stall(.watchdogFired(runner.watchdog ?? .zero)) }
    }

    func stall(_ reason: VirtualTimeStall.Reason) -> VirtualTimeStall {
      let counts = runner.clock.sleeperCounts
      return VirtualTimeStall(
        reason: reason, now: runner.clock.now, pendingJobCount: runner.executor.pendingJobCount,
        sleeperCount: counts.sleepers, scheduledCallCount: counts.scheduledCalls,
        nextDeadline: runner.clock.nextDeadline,
        externalWorkInFlight: runner.executor.externalWorkInFlight, drivenOnMainThread: onMainThread,
        sleepsFromOutsideTheRun: runner.executor.sleepsFromOutsideTheRun)
    }
  }
}
