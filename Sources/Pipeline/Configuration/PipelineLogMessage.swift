// Diagnostics the pipeline reports to whoever listens; the library itself prints nothing. Each
// says what really happened: a request to a remote source is network traffic, a question to a
// local one (the offline catalog, a stub) is not, and the lines tell them apart.

/// A diagnostic about the pipeline's work, for a `--verbose` log.
public enum PipelineLogMessage: Sendable, Equatable, CustomStringConvertible {
  /// A request is sent to a remote source (`isRemote`, e.g. the iTunes Search API).
  case fetching(term: String, category: String)
  /// A local source (not `isRemote`: the offline catalog, a stub) is asked, named by its `name`;
  /// nothing leaves the process. Counted as a request, as ``fetching(term:category:)`` is.
  case searching(term: String, category: String, source: String)
  /// A category was answered from the cache.
  case cacheHit(term: String, category: String)
  /// A category was answered from the disk tier (an earlier run's or another process's answer).
  case diskHit(term: String, category: String)
  /// A fetched answer was handed to the disk tier's writer.
  case stored(term: String, category: String)
  /// A category joined a request another search had started.
  case joined(term: String, category: String)
  /// A request to a remote source failed.
  case failed(term: String, category: String, error: SearchError)
  /// A local source, named by its `name`, failed to answer (e.g. it took longer than the timeout).
  case localSearchFailed(term: String, category: String, source: String, error: SearchError)
  /// A request failed and an expired cached answer was served instead.
  case servedStale(term: String, category: String, error: SearchError)
  /// A session was idle long enough to be forgotten.
  case sessionForgotten(String)

  /// One log line, e.g. `[network] fetching "taylor" (music)` for a remote source, or
  /// `[catalog] searching "taylor" (music)` for the offline catalog.
  public var description: String {
    switch self {
    case .fetching(let term, let category): "[network] fetching \(quoted(term)) (\(category))"
    case .searching(let term, let category, let source): "[\(source)] searching \(quoted(term)) (\(category))"
    case .cacheHit(let term, let category): "[cache] hit \(quoted(term)) (\(category))"
    case .diskHit(let term, let category): "[cache] disk hit \(quoted(term)) (\(category))"
    case .stored(let term, let category): "[cache] stored \(quoted(term)) (\(category))"
    case .joined(let term, let category): "[cache] joined the request in flight for \(quoted(term)) (\(category))"
    case .failed(let term, let category, let error):
      "[network] \(quoted(term)) (\(category)) failed: \(error.kind): \(error.message)"
    case .localSearchFailed(let term, let category, let source, let error):
      "[\(source)] \(quoted(term)) (\(category)) failed: \(error.kind): \(error.message)"
    case .servedStale(let term, let category, let error):
      "[cache] serving the expired answer for \(quoted(term)) (\(category)): \(error.kind): \(error.message)"
    case .sessionForgotten(let session): "[session] forgot idle session \(quoted(session))"
    }
  }
}

private func quoted(_ text: String) -> String {
  "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\\"") + "\""
}
