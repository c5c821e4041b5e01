// The one place events are stamped and counted: seq and at_ms are assigned under one lock, in
// the order events are handed to the sink, so the output's order and numbering always agree.
import Synchronization

/// Stamps events with `seq` and `at_ms`, counts them for the summary, remembers which searches
/// are open, and hands each to the sink while holding the lock (so concurrent sessions cannot
/// interleave a seq out of order).
final class EventEmitter<C: Clock>: Sendable where C.Duration == Duration {
  private struct State {
    var seq = 0
    var summary = RunSummary()
    /// The term of the search each session has in flight, keyed by session (nil for none).
    var openSearches: [String?: String] = [:]
    /// The run is stopping: searches still open end as `cancelled` for `shutdown`, whatever
    /// answer arrives meanwhile.
    var stopping = false
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

  /// Counts an input line (good or bad) for the summary.
  func countInputLine() {
    state.withLock { $0.summary.inputLines += 1 }
  }

  /// From now on, answers (results, errors, partials, waits) are dropped: the run is stopping,
  /// and each search still open is to be reported `cancelled` for `shutdown` by
  /// ``cancelOpenSearches()``. Stopping cancels the searches one after another, and an answer
  /// that arrives meanwhile (a request ended by another search's cancellation, say) would
  /// otherwise be reported as that search's end.
  func stop() {
    state.withLock { $0.stopping = true }
  }

  /// Stamps, counts and delivers one event.
  func emit(_ kind: SearchEvent.Kind, session: String?) {
    state.withLock { state in
      if state.stopping {
        switch kind {
        case .results, .error, .partial, .waiting: return
        default: break
        }
      }
      // Read under the lock: with a real clock, sessions emitting concurrently would otherwise
      // get seq numbers whose at_ms go backwards.
      let atMilliseconds = start.duration(to: clock.now).wholeMilliseconds
      state.seq += 1
      let sessionKey = session
      switch kind {
      case .search(let term):
        state.summary.searches += 1
        state.openSearches[sessionKey] = term
      case .results:
        state.summary.results += 1
        state.openSearches[sessionKey] = nil
      case .error:
        state.summary.errors += 1
        state.openSearches[sessionKey] = nil
      case .cancelled:
        state.summary.cancellations += 1
        state.openSearches[sessionKey] = nil
      case .inputError:
        state.summary.inputErrors += 1
      case .cleared, .partial, .waiting, .summary:
        break
      }
      sink(SearchEvent(seq: state.seq, atMilliseconds: atMilliseconds, session: session, kind: kind))
    }
  }

  /// Reports every search still open as cancelled for `shutdown`, in session order.
  func cancelOpenSearches() {
    let open = state.withLock { $0.openSearches }
    // The unnamed session first, then by name: the same order in every process.
    let ordered = open.sorted { lhs, rhs in
      guard let left = lhs.key else { return rhs.key != nil }
      guard let right = rhs.key else { return false }
      return left < right
    }
    for (session, term) in ordered {
      emit(.cancelled(term: term, reason: .shutdown), session: session)
    }
  }

  /// Emits the summary, last, with the request and cache counts given.
  func emitSummary(requests: Int, cacheHits: Int, disk: (status: DiskTierStatus, hits: Int)?) -> RunSummary {
    let summary = state.withLock { state in
      state.summary.requests = requests
      state.summary.cacheHits = cacheHits
      state.summary.diskTier = disk?.status
      state.summary.diskHits = disk?.hits ?? 0
      return state.summary
    }
    emit(.summary(summary), session: nil)
    return summary
  }
}
