// What the view model asks for results: a protocol, so tests hand it a stub with latency.

/// Answers a search term with titles.
public protocol SearchService: Sendable {
  /// The titles matching `term`. Throws `CancellationError` when the task is cancelled.
  func titles(matching term: String) async throws -> [String]
}
