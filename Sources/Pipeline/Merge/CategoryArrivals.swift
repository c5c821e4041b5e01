// The answers of one search's requests as they arrive on the threads that answer them, handed
// to the search's task in one resumption when the last is in: a search waits for all its
// categories without a task per category.
import Streams
import Synchronization

/// Collects `expected` arrivals, calls `progress` with each as it comes (one at a time, in
/// arrival order), and resumes the waiting task with all of them once the last is in.
///
/// - Cancellation: ``cancel()`` cancels every request added (and any added later); each then
///   arrives with its cancellation, so the task is resumed once they have.
final class CategoryArrivals<Arrival: Sendable>: Sendable {
  private struct State {
    var arrived: [Arrival] = []
    var continuation: UnsafeContinuation<[Arrival], Never>?
    var requests: [CacheRequest] = []
    var cancelled = false
  }

  private let expected: Int
  private let progress: @Sendable (Arrival) -> Void
  private let state = Mutex(State())
  /// Serialises `progress`: two requests can be answered on two threads at once.
  private let reporting = Mutex(())

  init(expected: Int, progress: @escaping @Sendable (Arrival) -> Void) {
    self.expected = expected
    self.progress = progress
  }

  /// Parks the search's task until every arrival is in; resumes it at once if they all are.
  func wait(_ continuation: UnsafeContinuation<[Arrival], Never>) {
    let ready = state.withLock { state -> [Arrival]? in
      guard state.arrived.count < expected else { return state.arrived }
      state.continuation = continuation
      return nil
    }
    if let ready { continuation.resume(returning: ready) }
  }

  /// Keeps `request` to cancel with the others; cancels it at once if the search already was.
  func add(_ request: CacheRequest) {
    let cancelNow = state.withLock { state -> Bool in
      if state.cancelled { return true }
      state.requests.append(request)
      return false
    }
    if cancelNow { request.cancel() }
  }

  /// One request's answer: reported, then, if it is the last, handed to the task.
  func arrive(_ arrival: Arrival) {
    reporting.withLock { _ in progress(arrival) }
    let resume = state.withLock { state -> (UnsafeContinuation<[Arrival], Never>, [Arrival])? in
      state.arrived.append(arrival)
      guard state.arrived.count == expected, let continuation = state.continuation else { return nil }
      state.continuation = nil
      state.requests = []
      return (continuation, state.arrived)
    }
    resume.map { $0.0.resume(returning: $0.1) }
  }

  /// The search was cancelled: leaves every request (each arrives with its cancellation).
  func cancel() {
    let requests = state.withLock { state -> [CacheRequest] in
      state.cancelled = true
      defer { state.requests = [] }
      return state.requests
    }
    for request in requests { request.cancel() }
  }
}
