// The answers of one search's requests as they arrive on the threads that answer them, handed
// on together when the last is in: a search waits for all its categories with no task at all.
import Streams
import Synchronization

/// Collects `expected` arrivals, calls `progress` with each as it comes (one at a time, in
/// arrival order), and calls `completion` with all of them once the last is in, after the last
/// `progress`.
///
/// Neither is called under the lock: each arrival (and, after the last, the completion) is
/// queued under it and delivered by whichever answering thread finds nobody delivering, so two
/// requests answered on two threads at once are reported one after the other.
///
/// - Cancellation: ``cancel()`` cancels every request added (and any added later); each then
///   arrives with its cancellation, so `completion` still comes, once they have.
final class CategoryArrivals<Arrival: Sendable>: Sendable {
  private enum Report {
    case progress(Arrival)
    case completion([Arrival])
  }

  private struct State {
    var arrived: [Arrival] = []
    var requests: [CacheRequest] = []
    var cancelled = false
    var reports = DeliveryQueue<Report>()
  }

  private let expected: Int
  private let progress: @Sendable (Arrival) -> Void
  private let completion: @Sendable ([Arrival]) -> Void
  private let state = Mutex(State())

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
    var next = state.withLock { state -> Report? in
      state.arrived.append(arrival)
      let first = state.reports.offer(.progress(arrival))
      if state.arrived.count == expected {
        state.requests = []
        // Queued in the same step as the last progress, so it is delivered after every one.
        state.reports.enqueue(.completion(state.arrived))
      }
      return first
    }
    while let report = next {
      switch report {
      case .progress(let arrival): progress(arrival)
      case .completion(let all): completion(all)
      }
      next = state.withLock { $0.reports.next() }
    }
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
