// The loopback server's shared record: the handler, the request log, open connections, and the
// waiters that tests suspend on until the log shows what they expect (no polling, no sleeping).
import Foundation
import Synchronization

/// Thread-safe state shared by the accepting thread, the connection threads and the tests.
final class ServerLog: Sendable {
  private struct Waiter {
    var condition: @Sendable ([ReceivedRequest]) -> Bool
    var continuation: CheckedContinuation<[ReceivedRequest], Never>
  }

  private struct State {
    var handler: LoopbackHTTPServer.Handler
    var requests: [ReceivedRequest] = []
    var openConnections = 0
    var waiters: [Waiter] = []
    var connectionWaiters: [(atMost: Int, continuation: CheckedContinuation<Int, Never>)] = []
    var stopped = false
  }

  private let state: Mutex<State>

  init(handler: @escaping LoopbackHTTPServer.Handler) {
    state = Mutex(State(handler: handler))
  }

  var handler: LoopbackHTTPServer.Handler {
    get { state.withLock { $0.handler } }
    set { state.withLock { $0.handler = newValue } }
  }

  var requests: [ReceivedRequest] { state.withLock { $0.requests } }

  var openConnections: Int { state.withLock { $0.openConnections } }

  func connectionOpened() { state.withLock { $0.openConnections += 1 } }

  func connectionClosed() {
    let (satisfied, open) = state.withLock { state in
      state.openConnections -= 1
      let open = state.openConnections
      var satisfied: [CheckedContinuation<Int, Never>] = []
      state.connectionWaiters.removeAll { waiter in
        guard open <= waiter.atMost else { return false }
        satisfied.append(waiter.continuation)
        return true
      }
      return (satisfied, open)
    }
    for continuation in satisfied { continuation.resume(returning: open) }
  }

  /// The number of open connections as soon as it is at most `count` (at once if it is), or
  /// as it stands when the server stops.
  func waitForOpenConnections(atMost count: Int) async -> Int {
    await withCheckedContinuation { continuation in
      let ready: Int? = state.withLock { state in
        if state.stopped || state.openConnections <= count { return state.openConnections }
        state.connectionWaiters.append((count, continuation))
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Logs a request that arrived now; nil for a head whose request line is malformed.
  func record(_ head: RequestHead) -> ReceivedRequest? {
    let arrival = ContinuousClock.now
    let parts = head.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let rawQuery = parts.count > 1 ? String(parts[1]) : ""
    return update { requests in
      let request = ReceivedRequest(
        index: requests.count, method: head.method, target: head.target,
        path: parts.first.map(String.init) ?? head.target, rawQuery: rawQuery,
        parameters: QueryString.decode(rawQuery), headers: head.headers, arrivedAt: arrival
      )
      requests.append(request)
      return request
    }
  }

  /// Notes that the client of request `index` closed before its answer was complete.
  func recordEarlyClose(ofRequest index: Int) {
    let now = ContinuousClock.now
    update { requests in
      if requests.indices.contains(index) { requests[index].clientClosedEarlyAt = now }
    }
  }

  /// Notes how many bytes of its streamed body request `index` was sent.
  func recordBodyBytesSent(_ count: Int, ofRequest index: Int) {
    update { requests in
      if requests.indices.contains(index) { requests[index].bodyBytesSent = count }
    }
  }

  /// The log as soon as `condition` holds for it (at once if it already does), or as it stands
  /// when the server stops.
  func wait(until condition: @escaping @Sendable ([ReceivedRequest]) -> Bool) async -> [ReceivedRequest] {
    await withCheckedContinuation { continuation in
      let ready: [ReceivedRequest]? = state.withLock { state in
        if state.stopped || condition(state.requests) { return state.requests }
        state.waiters.append(Waiter(condition: condition, continuation: continuation))
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Releases every waiter with the final log; later waits return at once.
  func markStopped() {
    let (waiters, connectionWaiters, requests, open) = state.withLock { state in
      state.stopped = true
      defer {
        state.waiters = []
        state.connectionWaiters = []
      }
      return (state.waiters, state.connectionWaiters, state.requests, state.openConnections)
    }
    for waiter in waiters { waiter.continuation.resume(returning: requests) }
    for waiter in connectionWaiters { waiter.continuation.resume(returning: open) }
  }

  /// Changes the log, then resumes (outside the lock) the waiters whose condition now holds.
  private func update<T>(_ change: (inout [ReceivedRequest]) -> T) -> T {
    let (result, satisfied, requests) = state.withLock { state in
      let result = change(&state.requests)
      let log = state.requests
      var satisfied: [Waiter] = []
      state.waiters.removeAll { waiter in
        guard waiter.condition(log) else { return false }
        satisfied.append(waiter)
        return true
      }
      return (result, satisfied, log)
    }
    for waiter in satisfied { waiter.continuation.resume(returning: requests) }
    return result
  }
}
