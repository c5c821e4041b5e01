// The one place events are stamped and counted: seq and at_ms are assigned under one lock, in
// the order events are queued for the sink, so the output's order and numbering always agree.
// The sink is called with the lock released: it may fail, and what its failure starts (stopping
// the run) comes back here.
import Streams
import Synchronization

/// Stamps events with `seq` and `at_ms`, counts them for the summary, remembers which searches
/// are open, and hands each to the sink in `seq` order, one call at a time.
///
/// The sink is never called under the lock. An event is stamped and queued under it; the thread
/// that finds nobody delivering delivers the queue, its own event and whatever other sessions
/// (or the sink itself, calling back in) queue meanwhile, with the lock released. A sink whose
/// write fails may therefore stop the run from inside the call: that takes this lock again, which
/// is free.
final class EventEmitter<C: Clock>: Sendable where C.Duration == Duration {
  private struct State {
    var seq = 0
    /// The latest `at_ms` given: a later stamp never goes below it.
    var atMilliseconds: Int64 = 0
    var summary = RunSummary()
    /// The term and input line of the search each named session has in flight, keyed by name.
    var openSearches: [String: (term: String, line: Int?)] = [:]
    /// The same for the unnamed session, the only one of a replay or a piped run: kept beside
    /// the table rather than in it under nil, which hashed the key twice per search.
    var unnamedOpenSearch: (term: String, line: Int?)?

    /// Records the search `session` has in flight, or (nil) that it has none.
    mutating func setOpenSearch(_ search: (term: String, line: Int?)?, session: String?) {
      if let session { openSearches[session] = search } else { unnamedOpenSearch = search }
    }
    /// The run is stopping: searches still open end as `cancelled` for `shutdown`, whatever
    /// answer arrives meanwhile.
    var stopping = false
    /// Stamped events on their way to the sink.
    var deliveries = DeliveryQueue<SearchEvent>()
    /// Callers waiting for every stamped event to reach the sink.
    var drainWaiters: [UnsafeContinuation<Void, Never>] = []

    /// Stamps `kind` and counts it, or nil when the run is stopping and it is an answer.
    mutating func stamp(_ kind: SearchEvent.Kind, session: String?, inputLine: Int?, measured: Int64) -> SearchEvent? {
      if stopping {
        switch kind {
        case .results, .error, .partial, .waiting: return nil
        default: break
        }
      }
      // The clock is read before the lock is taken, so two sessions emitting at once could read
      // it in one order and stamp in the other: at_ms must not go backwards along seq.
      atMilliseconds = max(atMilliseconds, measured)
      seq += 1
      switch kind {
      case .search(let term):
        summary.searches += 1
        setOpenSearch((term, inputLine), session: session)
      case .results:
        summary.results += 1
        setOpenSearch(nil, session: session)
      case .error:
        summary.errors += 1
        setOpenSearch(nil, session: session)
      case .cancelled:
        summary.cancellations += 1
        setOpenSearch(nil, session: session)
      case .inputError:
        summary.inputErrors += 1
      case .cleared, .partial, .waiting, .summary:
        break
      }
      return SearchEvent(
        seq: seq, atMilliseconds: atMilliseconds, session: session, inputLine: inputLine, kind: kind)
    }

    /// The next event for the delivering thread; nil when none is left, with the callers that
    /// waited for that moment.
    mutating func nextDelivery() -> (SearchEvent?, [UnsafeContinuation<Void, Never>]) {
      if let event = deliveries.next() { return (event, []) }
      defer { drainWaiters = [] }
      return (nil, drainWaiters)
    }
  }

  private let sink: @Sendable (SearchEvent) -> Void
  private let clock: C
  private let start: C.Instant
  private let state = Mutex(State())

  init(clock: C, sink: @escaping @Sendable (SearchEvent) -> Void) {
    self.clock = clock
    self.start = clock.now
    self.sink = sink
  }

  /// From now on, answers (results, errors, partials, waits) are dropped: the run is stopping,
  /// and each search still open is to be reported `cancelled` for `shutdown` by
  /// ``cancelOpenSearches()``. Stopping cancels the searches one after another, and an answer
  /// that arrives meanwhile (a request ended by another search's cancellation, say) would
  /// otherwise be reported as that search's end.
  func stop() {
    state.withLock { $0.stopping = true }
  }

  /// Stamps and counts one event about input line `inputLine`, and delivers it (with any queued
  /// before it) unless another thread is delivering, which then delivers it too, in order.
  func emit(_ kind: SearchEvent.Kind, session: String?, inputLine: Int? = nil) {
    let measured = start.duration(to: clock.now).wholeMilliseconds
    let first = state.withLock { state -> SearchEvent? in
      guard let event = state.stamp(kind, session: session, inputLine: inputLine, measured: measured) else {
        return nil
      }
      return state.deliveries.offer(event)
    }
    deliver(first)
  }

  /// Calls the sink with `first`, then with every event queued meanwhile, releasing the lock for
  /// each call; resumes whoever waited for the queue to empty.
  private func deliver(_ first: consuming SearchEvent?) {
    // Consumed: borrowed, the optional was copied out to be delivered and destroyed after, both
    // through its value witnesses (a large type's optional), for every event.
    var event: SearchEvent
    switch consume first {
    case .some(let first): event = first
    case .none: return
    }
    while true {
      sink(event)
      let (next, drained) = state.withLock { $0.nextDelivery() }
      guard let next else {
        for waiter in drained { waiter.resume() }
        return
      }
      event = next
    }
  }

  /// Returns once every event stamped so far has been handed to the sink (at once when this
  /// thread delivered them).
  private func delivered() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        guard state.deliveries.isDelivering else { return true }
        state.drainWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// Reports every search still open as cancelled for `shutdown`, in session order.
  func cancelOpenSearches() {
    let (unnamed, named) = state.withLock { ($0.unnamedOpenSearch, $0.openSearches) }
    // The unnamed session first, then by name: the same order in every process.
    if let search = unnamed {
      emit(.cancelled(term: search.term, reason: .shutdown), session: nil, inputLine: search.line)
    }
    for (session, search) in named.sorted(by: { $0.key < $1.key }) {
      emit(.cancelled(term: search.term, reason: .shutdown), session: session, inputLine: search.line)
    }
  }

  /// Emits the summary, last, with the input line, request and cache counts given, and returns
  /// once it has been handed to the sink: the process may exit as soon as the run returns.
  func emitSummary(
    inputLines: Int, requests: Int, cacheHits: Int, disk: (status: DiskTierStatus, hits: Int)?
  ) async -> RunSummary {
    let summary = state.withLock { state in
      state.summary.inputLines = inputLines
      state.summary.requests = requests
      state.summary.cacheHits = cacheHits
      state.summary.diskTier = disk?.status
      state.summary.diskHits = disk?.hits ?? 0
      return state.summary
    }
    emit(.summary(summary), session: nil)
    await delivered()
    return summary
  }
}
