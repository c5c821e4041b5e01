// A replay of a network source waits, blocking, for each answer on its way: virtual time may not
// move past an answer that has not come. A stop request from another thread (a signal) ends that
// wait, so the replay acts on it at once, reporting the open searches cancelled, instead of when
// the answer comes or times out.
//
// The run itself is cancelled on the replay's own thread, never from the signal's: cancelling
// runs the pipeline's cancellation handlers on the cancelling thread, and the jobs they queue
// would race with the runner deciding that nothing is left to run.
import Streams
import Synchronization

/// Stops a replay from any thread: it no longer waits for answers from outside virtual time,
/// and its driver cancels the run at its next step.
package final class ReplayStop: Sendable {
  private enum State {
    /// Not requested; the replay's runner once it has one.
    case running(VirtualTimeRunner?)
    /// Requested: the runner, present or to come, no longer waits.
    case requested
  }

  private let state = Mutex(State.running(nil))

  package init() {}

  /// From any thread: the replay waits for no outside work from now on; it cancels its run at
  /// its next step (its next line, or the end of the input's last searches).
  package func request() {
    let runner = state.withLock { state -> VirtualTimeRunner? in
      guard case .running(let runner) = state else { return nil }
      state = .requested
      return runner
    }
    runner?.stopWaitingForExternalWork()
  }

  /// Whether ``request()`` was called.
  var isRequested: Bool {
    state.withLock { state in
      if case .requested = state { return true }
      return false
    }
  }

  /// The replay's runner, once made; told at once if the stop was requested before.
  func attach(_ runner: VirtualTimeRunner) {
    let requested = state.withLock { state -> Bool in
      guard case .running = state else { return true }
      state = .running(runner)
      return false
    }
    if requested { runner.stopWaitingForExternalWork() }
  }
}
