// Whether a VirtualTimeRunner orders main-actor jobs with its own. Ordering them costs a
// round trip to the main queue at every idle point, so by default the runner pays it only once
// main-actor code has been seen taking part.

/// When a ``VirtualTimeRunner`` runs its jobs on the main queue, between the main actor's.
public enum MainActorOrdering: Sendable, Hashable {
  /// From the start. What tests of `@MainActor` code want; `withVirtualTime` (StreamsTesting)
  /// creates its runners this way.
  case always
  /// From the first sign of main-actor code: a job enqueued on the runner from the main queue
  /// (main-actor code calling back into a runner task), an `async` driving call (`drive…`), or
  /// a `finish`/`run` that would stall while the main queue still had work for the run. Until
  /// then the runner does not touch the main queue, so the first contact with main-actor code
  /// is not ordered: a test that starts main-actor work and then calls `advance` may see time
  /// move before that work has run. Tests of main-actor code should use ``always``.
  case onceSeen
  /// Never: for code with no main-actor part, or a process whose main queue does not run.
  /// While ``VirtualTimeRunner/hosting(isolation:_:)`` runs a test body, main-actor jobs are
  /// ordered all the same: the body's own jobs run on the main queue.
  case never
}
