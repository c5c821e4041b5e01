// The answers of one search's requests as they arrive on the threads that answer them, handed
// on together when the last is in: a search waits for all its categories with no task at all.
import Streams
import Synchronization

/// Collects `expected` arrivals, calls `progress` with each as it comes (one at a time, in
/// arrival order), and calls `completion` with all of them once the last is in.
///
/// - Cancellation: ``cancel()`` cancels every request added (and any added later); each then
///   arrives with its cancellation, so `completion` still comes, once they have.
final class CategoryArrivals<Arrival: Sendable>: Sendable {
  private struct State {
    var arrived: [Arrival] = []
    var requests: [CacheRequest] = []
    var cancelled = false
  }

  private let expected: Int
  private let progress: @Sendable (Arrival) -> Void
  private let completion: @Sendable ([Arrival]) -> Void
  private let state = Mutex(State())
  /// Serialises `progress`: two requests can be answered on two threads at once.
  private let reporting = Mutex(())

  init(
    expected: Int, progress: @escaping @Sendable (Arrival) -> Void,
    completion: @escaping @Sendable ([Arrival]) -> Void
  ) {
    self.expected = expected
    self.progress = progress
    self.completion = completion
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

  /// One request's answer: reported, then, if it is the last, handed on with the others.
  func arrive(_ arrival: Arrival) {
    reporting.withLock { _ in progress(arrival) }
    let all = state.withLock { state -> [Arrival]? in
      state.arrived.append(arrival)
      guard state.arrived.count == expected else { return nil }
      state.requests = []
      return state.arrived
    }
    if let all { completion(all) }
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
