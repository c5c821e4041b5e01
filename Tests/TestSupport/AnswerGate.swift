// A gate a loopback server's handler waits on: the answer to a request is held until the test
// opens the gate (or a bound passes), so the request stays in flight for as long as the test needs,
// whatever the machine's load. Also counts when the server handled each request, on the calendar
// clock the tool stamps its rate budget with.
import Dispatch
import Foundation
import Synchronization

/// Holds answers until opened, and records when each request was handled.
public final class AnswerGate: Sendable {
  /// Entered once while closed; every waiter is let go when it is left.
  private let closed = DispatchGroup()
  private let state = Mutex<(open: Bool, handled: [Int64])>((false, []))
  private let bound: DispatchTimeInterval

  /// A closed gate; a held answer goes anyway after `bound`, so a test that fails cannot hang.
  public init(bound: DispatchTimeInterval = .seconds(60)) {
    self.bound = bound
    closed.enter()
  }

  /// Lets every held answer go, and every later one through at once.
  public func open() {
    let first = state.withLock { state -> Bool in
      defer { state.open = true }
      return !state.open
    }
    if first { closed.leave() }
  }

  /// Waits (on the server's connection thread) until the gate is open or the bound passed.
  public func pass() {
    _ = closed.wait(timeout: .now() + bound)
  }

  /// Records that a request is handled now, in milliseconds since 1970 (CLOCK_REALTIME).
  public func recordHandled() {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    let now = Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    state.withLock { $0.handled.append(now) }
  }

  /// The instants recorded, in the order the requests were handled.
  public var handled: [Int64] { state.withLock { $0.handled } }
}
