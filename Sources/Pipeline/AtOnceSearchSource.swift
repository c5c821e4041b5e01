// The fused path of a search: a source that has its answer at once (an in-memory catalog with no
// simulated latency) is asked on the caller's thread, so a search it answers needs no task, no
// task group and no timeout (see SearchRepository.answerAtOnce).

/// A source that can sometimes answer without waiting.
package protocol AtOnceSearchSource: SearchSource {
  /// Whether ``answerAtOnce(_:categories:)`` may be used: the source would not wait.
  var answersAtOnce: Bool { get }

  /// The answer for `request` in each of `categories`, computed on this thread, in a search of
  /// `searching` (which holds `categories`: the search asks the others in calls of their own,
  /// and the source may share work between them). Never waits and never fails; only called
  /// when ``answersAtOnce``.
  func answerAtOnce(_ request: SearchRequest, categories: [Category], searching: [Category]) -> [Category: [SearchItem]]
}
