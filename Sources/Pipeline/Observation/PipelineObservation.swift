// What happened in a run, as values for code that reacts (metrics, a screen's request counter, a
// worker freeing a session's state). Log lines are for people; these are for programs: a change of
// wording in a log line never changes what a program that counts requests sees.

/// One thing that happened in a running pipeline, told to its ``PipelineObserver``s.
///
/// Observations of a search's life (`searchStarted`, `searchFinished`, `searchFailed`,
/// `searchCancelled`) follow the events the sink is handed, one for one and in the same order,
/// and are delivered after the event reached the sink. The others are told on the thread where the
/// thing happened, as it happens. None is told under a lock of the pipeline's.
public enum PipelineObservation: Sendable, Equatable {
  /// A keystroke of `session` (nil: the unnamed session) entered the pipeline.
  case keystroke(session: String?)
  /// A request was sent to the source named `source` for `term` in `category` ("all" for one
  /// request covering every category); `remote` when it left the process.
  case requestSent(term: String, category: String, source: String, remote: Bool)
  /// A category of the search for `term` was answered from the memory cache.
  case cacheHit(term: String, category: String)
  /// A search for `term` started in `session`.
  case searchStarted(session: String?, term: String)
  /// The search for `term` ended with `items` items in all, `elapsed` after it started.
  case searchFinished(session: String?, term: String, items: Int, elapsed: Duration)
  /// The search for `term` ended in `error`.
  case searchFailed(session: String?, term: String, error: SearchError)
  /// The search for `term` was abandoned before its answer, for `reason`.
  case searchCancelled(session: String?, term: String, reason: CancelReason)
  /// A session was idle for ``PipelineConfiguration/sessionIdleTimeout`` and its state was freed.
  case sessionForgotten(String)
}

extension PipelineObservation {
  /// The observation a delivered event stands for, if it is one of a search's life.
  init?(event: SearchEvent) {
    switch event.kind {
    case .search(let term):
      self = .searchStarted(session: event.session, term: term)
    case .results(let term, _, let categories, let elapsed):
      let items = categories.reduce(0) { count, result in
        guard case .items(let items, _) = result.outcome else { return count }
        return count + items.count
      }
      self = .searchFinished(session: event.session, term: term, items: items, elapsed: .milliseconds(elapsed))
    case .error(let term, let error):
      self = .searchFailed(session: event.session, term: term, error: error)
    case .cancelled(let term, let reason):
      self = .searchCancelled(session: event.session, term: term, reason: reason)
    case .partial, .waiting, .cleared, .inputError, .summary:
      return nil
    }
  }
}
