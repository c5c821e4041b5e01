// The permits one request holds while it runs: the process's own, from its limiter, and the one
// of the budget shared through the store with every other process. Both follow one rule
// (RateRule): held from the grant until a window after the request ends, so both are finished
// together, however the request ended.
import Streams

/// The permits of one request, finished together when it ends.
struct RequestPermit: Sendable {
  /// The process's own permit; nil without `--rate-limit`.
  let local: HeldPermit?
  /// The shared budget's; nil without a store, or with one that is off.
  let shared: BudgetPermit?

  /// Records the request as over now, the first time it is called. `mayStillArrive`: it ended
  /// without an answer (cancelled, timed out, its connection lost), so its bytes may still reach
  /// the server; false when its answer came back (any status) or it was never sent.
  func finish(mayStillArrive: Bool) {
    local?.finish(mayStillArrive: mayStillArrive)
    shared?.finish(mayStillArrive: mayStillArrive)
  }
}
