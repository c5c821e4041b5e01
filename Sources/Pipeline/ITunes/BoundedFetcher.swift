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
  /// - Throws: `BodyTooLarge` over the cap; the session's `URLError` on failure, including
  ///   `URLError.cancelled` when the task is cancelled during the transfer (the request is then
  ///   aborted); `CancellationError` when the task was cancelled before it started.
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
    }
  }
}

/// The session delegate: routes each task's callbacks to its transfer, by task identifier.
private final class TransferRouter: NSObject, URLSessionDataDelegate, Sendable {
  private struct Transfer {
    var continuation: CheckedContinuation<FetchedAnswer, any Error>
    var status: Int?
    var body = Data()
    var tooLarge = false
  }

  private let maxBodyBytes: Int
  private let transfers = Mutex<[Int: Transfer]>([:])

  init(maxBodyBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
  }

  func begin(_ id: Int, _ continuation: CheckedContinuation<FetchedAnswer, any Error>) {
    transfers.withLock { $0[id] = Transfer(continuation: continuation) }
  }

  /// Ends a transfer that never started, with `CancellationError`.
  func abandon(_ id: Int) {
    transfers.withLock { $0.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let limit = maxBodyBytes
    let allowed = transfers.withLock { transfers -> Bool in
      guard var transfer = transfers[dataTask.taskIdentifier] else { return false }
      transfer.status = (response as? HTTPURLResponse)?.statusCode
      // -1 means unknown (chunked, or no Content-Length): counted as it arrives instead.
      transfer.tooLarge = response.expectedContentLength > Int64(limit)
      transfers[dataTask.taskIdentifier] = transfer
      return !transfer.tooLarge
    }
    completionHandler(allowed ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let limit = maxBodyBytes
    let crossedLimit = transfers.withLock { transfers -> Bool in
      guard var transfer = transfers[dataTask.taskIdentifier], !transfer.tooLarge else { return false }
      if transfer.body.count + data.count > limit {
        transfer.tooLarge = true
        transfer.body = Data()
      } else {
        transfer.body.append(data)
      }
      transfers[dataTask.taskIdentifier] = transfer
      return transfer.tooLarge
    }
    if crossedLimit { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    if transfer.tooLarge {
      transfer.continuation.resume(throwing: BodyTooLarge(limit: maxBodyBytes))
    } else if let error {
      transfer.continuation.resume(throwing: error)
    } else if let status = transfer.status {
      transfer.continuation.resume(returning: FetchedAnswer(status: status, body: transfer.body))
    } else {
      transfer.continuation.resume(throwing: URLError(.badServerResponse))
    }
  }
}
