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

  /// Runs the request `body` under the permit and finishes the permit when it ends, by how it
  /// ended: the one place that decides whether a request may still reach the server.
  func held<T>(during body: () async throws -> T) async throws -> T {
    do {
      let value = try await body()
      finish(mayStillArrive: false)
      return value
    } catch {
      finish(mayStillArrive: Self.mayStillArrive(after: error))
      throw error
    }
  }

  /// Whether a request that failed with `error` may still reach the server: it ended without an
  /// answer (cancelled, timed out, its connection lost or refused). A status, even an error's or
  /// a redirect's, is an answer: the server had the request.
  static func mayStillArrive(after error: any Error) -> Bool {
    switch error as? SearchError {
    case .rateLimited, .server, .badStatus, .decoding, .redirect: false
    case .offline, .timedOut, nil: true
    }
  }
}

extension Optional where Wrapped == RequestPermit {
  /// ``RequestPermit/held(during:)`` for a request that may hold no permit (no limiter, no store).
  func held<T>(during body: () async throws -> T) async throws -> T {
    guard let permit = self else { return try await body() }
    return try await permit.held(during: body)
  }
}
