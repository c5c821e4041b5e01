// Fetches one HTTP answer with a cap on the body size, follows only the redirects RedirectPolicy
// allows, and aborts the request when the task is cancelled.
//
// A completion-handler data task buffers the whole body before we can look at it, so a server
// sending gigabytes would fill memory. Instead a session delegate (TransferRouter) sees the body
// chunk by chunk, as decoded: it refuses an answer whose Content-Length is over the cap at once,
// and counts the bytes of the others (chunked bodies, a server whose Content-Length lies, a
// compressed body that inflates), cancelling the transfer the moment the cap is crossed.
//
// The delegate must belong to the session: swift-corelibs-foundation does not call a per-task
// delegate (`URLSessionTask.delegate`) of a data task, so the fetcher owns its own session.
//
// The caller is answered as soon as the outcome is known (cap crossed, task cancelled, redirect
// refused), not when the session reports completion. `URLSessionTask.cancel()` itself waits for
// the session's work queue on Linux (Foundation 6.3), which a transfer can keep busy for seconds,
// so it is never called on the cooperative pool nor before the caller is answered: it runs on a
// queue of the fetcher's own. Later callbacks for that task find no transfer and are dropped.
import Dispatch
import Foundation
import Pipeline

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The status and body of an HTTP answer.
struct FetchedAnswer: Sendable {
  var status: Int
  var body: Data
}

/// The body was larger than the fetcher accepts.
struct BodyTooLarge: Error, Sendable, Hashable {
  /// The cap, in bytes.
  var limit: Int
  /// The length the answer's Content-Length announced when that alone was over the cap (the
  /// body then refused before any of it was read); nil when counting the body crossed the cap.
  var announced: Int64?
}

/// A redirect the fetcher does not follow (see `RedirectPolicy`).
struct RedirectRefused: Error, Sendable, Hashable {
  /// Why, for people.
  var reason: String
}

/// Runs data tasks on a private session whose delegate enforces a body-size cap and the redirect
/// policy.
final class BoundedFetcher: Sendable {
  private let session: URLSession
  private let router: TransferRouter

  /// A fetcher whose session uses `configuration`, refusing bodies over `maxBodyBytes`.
  init(configuration: URLSessionConfiguration, maxBodyBytes: Int) {
    router = TransferRouter(maxBodyBytes: maxBodyBytes)
    session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
  }

  deinit {
    // The session keeps its delegate alive until it is invalidated.
    session.finishTasksAndInvalidate()
  }

  /// The answer to `request`.
  ///
  /// - Throws: `BodyTooLarge` over the cap, at once; `RedirectRefused` for a redirect the policy
  ///   refuses; the session's `URLError` on failure; `CancellationError` when the task is
  ///   cancelled, at once, the request being aborted in the background (or `URLError.cancelled`,
  ///   should the session report the abort first).
  func fetch(_ request: URLRequest) async throws -> FetchedAnswer {
    let task = session.dataTask(with: request)
    let id = task.taskIdentifier
    let router = router
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        router.begin(id, url: request.url, continuation)
        // Checked after `begin`: a cancellation from now on reaches the cancellation handler in a
        // running task; one that came before is caught here and the task never starts.
        if Task.isCancelled {
          router.abandon(id)
        } else {
          task.resume()
        }
      }
    } onCancel: {
      router.abandon(id)
      TransferRouter.cancelInBackground(task)
    }
  }
}
