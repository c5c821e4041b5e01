// Fetches one HTTP answer with a cap on the body size, and aborts the request when the task is cancelled.
//
// A completion-handler data task buffers the whole body before we can look at it, so a server
// sending gigabytes would fill memory. Instead a session delegate sees the body chunk by chunk:
// it refuses an answer whose Content-Length is over the cap at once, and counts the bytes of the
// others (chunked bodies, or a server whose Content-Length lies), cancelling the transfer the
// moment the cap is crossed. At most `maxBodyBytes` plus one network chunk is ever held.
//
// The delegate must belong to the session: swift-corelibs-foundation does not call a per-task
// delegate (`URLSessionTask.delegate`) of a data task, so the fetcher owns its own session.
//
// The caller is answered as soon as the outcome is known (cap crossed, task cancelled), not when
// the session reports completion: on Linux a `cancel()` is only acted on once libcurl stops
// delivering data, so a server streaming without end would otherwise hold the search forever.
// Later callbacks for that task find no transfer and are dropped.
import Foundation
import Synchronization

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
}

/// Runs data tasks on a private session whose delegate enforces a body-size cap.
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
  /// - Throws: `BodyTooLarge` over the cap, at once; the session's `URLError` on failure;
  ///   `CancellationError` when the task is cancelled, at once, the request being aborted in the
  ///   background (or `URLError.cancelled`, should the session report the abort first).
  func fetch(_ request: URLRequest) async throws -> FetchedAnswer {
    let task = session.dataTask(with: request)
    let id = task.taskIdentifier
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        router.begin(id, continuation)
        // Checked after `begin`: a cancellation from now on reaches `task.cancel()` in a running
        // task; one that came before is caught here and the task never starts.
        if Task.isCancelled {
          router.abandon(id)
        } else {
          task.resume()
        }
      }
    } onCancel: {
      task.cancel()
      router.abandon(id)
    }
  }
}

/// The session delegate: routes each task's callbacks to its transfer, by task identifier.
private final class TransferRouter: NSObject, URLSessionDataDelegate, Sendable {
  private struct Transfer {
    var continuation: CheckedContinuation<FetchedAnswer, any Error>
    var status: Int?
    var body = Data()
  }

  private let maxBodyBytes: Int
  private let transfers = Mutex<[Int: Transfer]>([:])

  init(maxBodyBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
  }

  func begin(_ id: Int, _ continuation: CheckedContinuation<FetchedAnswer, any Error>) {
    transfers.withLock { $0[id] = Transfer(continuation: continuation) }
  }

  /// Ends a transfer with `CancellationError`, if it is still pending.
  func abandon(_ id: Int) {
    transfers.withLock { $0.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let id = dataTask.taskIdentifier
    // -1 means unknown (chunked, or no Content-Length): counted as it arrives instead.
    if response.expectedContentLength > Int64(maxBodyBytes) {
      failTooLarge(dataTask)
    } else {
      transfers.withLock { $0[id]?.status = (response as? HTTPURLResponse)?.statusCode }
    }
    // Cancelling the task rather than answering `.cancel`: swift-corelibs-foundation never
    // completes a task whose response was refused with `.cancel`.
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let limit = maxBodyBytes
    let crossedLimit = transfers.withLock { transfers -> Bool in
      guard var transfer = transfers[dataTask.taskIdentifier] else { return false }
      guard transfer.body.count + data.count <= limit else { return true }
      transfer.body.append(data)
      transfers[dataTask.taskIdentifier] = transfer
      return false
    }
    if crossedLimit { failTooLarge(dataTask) }
  }

  /// Answers `BodyTooLarge` at once and aborts the transfer.
  private func failTooLarge(_ task: URLSessionTask) {
    let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    transfer?.continuation.resume(throwing: BodyTooLarge(limit: maxBodyBytes))
    task.cancel()
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    if let error {
      transfer.continuation.resume(throwing: error)
    } else if let status = transfer.status {
      transfer.continuation.resume(returning: FetchedAnswer(status: status, body: transfer.body))
    } else {
      transfer.continuation.resume(throwing: URLError(.badServerResponse))
    }
  }
}
