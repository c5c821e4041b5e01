// A replay of a network source waits, blocking, for each answer on its way: virtual time may not
// move past an answer that has not come. A stop request from another thread (a signal) ends that
// wait and cancels the run, so the replay acts on it at once, reporting the open searches
// cancelled, instead of when the answer comes or times out.
import Streams
import Synchronization

/// Stops a replay from any thread: its run is cancelled and no longer waits for answers from
/// outside virtual time.
package final class ReplayStop: Sendable {
  /// A run to stop: its runner and its task's cancellation.
  struct Run: Sendable {
    var runner: VirtualTimeRunner
    var cancel: @Sendable () -> Void
  }

  private enum State {
    /// Not requested; the run once it has started.
    case running(Run?)
    /// Requested: the run, started or to come, is stopped.
    case requested
  }

  private let state = Mutex(State.running(nil))

  package init() {}

  /// From any thread: cancels the run and ends its waits for outside work, now or as soon as it
  /// starts. Its open searches end as cancelled, and the summary follows.
  package func request() {
    let run = state.withLock { state -> Run? in
      guard case .running(let run) = state else { return nil }
      state = .requested
      return run
    }
    run.map(Self.stop)
  }

  /// The replay's run, once started; stopped at once if the stop was requested before.
  func attach(_ run: Run) {
    let requested = state.withLock { state -> Bool in
      guard case .running = state else { return true }
      state = .running(run)
      return false
    }
    if requested { Self.stop(run) }
  }

  private static func stop(_ run: Run) {
    // Cancelled first: the searches it ends are answered by jobs, which the runner then runs
    // instead of waiting for the network.
    run.cancel()
    run.runner.stopWaitingForExternalWork()
  }
}
