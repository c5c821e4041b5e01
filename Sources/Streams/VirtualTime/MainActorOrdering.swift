// Whether a VirtualTimeRunner orders main-actor jobs with its own. Ordering them costs a
// round trip to the main queue at every idle point, so by default the runner pays it only once
// main-actor code has been seen taking part.

/// When a ``VirtualTimeRunner`` runs its jobs on the main queue, between the main actor's.
public enum MainActorOrdering: Sendable, Hashable {
  /// From the start. What tests of `@MainActor` code want; `withVirtualTime` (StreamsTesting)
  /// creates its runners this way.
  case always
  /// From the first sign of main-actor code: an `async` driving call (`drive…`), or a
  /// `finish`/`run` that would stall while the main queue still had work for the run. Until
  /// then the runner does not touch the main queue. A test whose first contact with main-actor
  /// code is `start` followed by `advance` may see time move before that code has run: use
  /// ``always`` there.
  case onceSeen
  /// Never: for code with no main-actor part, or a process whose main queue does not run.
  case never
}
