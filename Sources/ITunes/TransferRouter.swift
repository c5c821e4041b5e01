// The session delegate of BoundedFetcher: routes each task's callbacks to its transfer, counts
// the body against the cap, and decides redirects.
//
// The body grows in place inside the lock (no copy of what came before): a per-chunk copy makes
// the delegate slower than the network, and Foundation on Linux queues every chunk for the
// delegate without waiting for it, so a slow delegate let a 100 MB body be read whole and held
// in the queue before the cap was even noticed.
import Dispatch
import Foundation
import Pipeline
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

final class TransferRouter: NSObject, URLSessionDataDelegate, Sendable {
  private struct Transfer {
    var continuation: CheckedContinuation<FetchedAnswer, any Error>
    var status: Int?
    var body = Data()
    /// Every URL asked for this request, the original first.
    var chain: [URL]
  }

  /// Where tasks are cancelled (see BoundedFetcher): `cancel()` can wait for the session's work
  /// queue, so never on a caller's thread. Serial and shared: cancellations are rare and short.
  private static let cancelling = DispatchQueue(label: "stream-search.fetch-cancel")

  private let maxBodyBytes: Int
  private let transfers = Mutex<[Int: Transfer]>([:])

  init(maxBodyBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
  }

  /// Aborts `task` without waiting for the session.
  static func cancelInBackground(_ task: URLSessionTask) {
    cancelling.async { task.cancel() }
  }

  func begin(_ id: Int, url: URL?, _ continuation: CheckedContinuation<FetchedAnswer, any Error>) {
    transfers.withLock { $0[id] = Transfer(continuation: continuation, chain: url.map { [$0] } ?? []) }
  }

  /// Ends a transfer with `CancellationError`, if it is still pending.
  func abandon(_ id: Int) {
    end(id, throwing: CancellationError())
  }

  /// Removes transfer `id` and resumes its caller with `error`; false when it had already ended.
  @discardableResult
  private func end(_ id: Int, throwing error: any Error) -> Bool {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: id) }) else { return false }
    transfer.continuation.resume(throwing: error)
    return true
  }

  /// Answers `BodyTooLarge` at once, then aborts the transfer.
  private func failTooLarge(_ task: URLSessionTask, announced: Int64? = nil) {
    if end(task.taskIdentifier, throwing: BodyTooLarge(limit: maxBodyBytes, announced: announced)) {
      Self.cancelInBackground(task)
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let id = dataTask.taskIdentifier
    // -1 means unknown (chunked, or no Content-Length): counted as it arrives instead. With a
    // Content-Encoding it is the encoded length, so the decoded bytes are counted as well.
    let expected = response.expectedContentLength
    if expected > Int64(maxBodyBytes) {
      // Refused on the headers alone: the caller is answered before any of the body is read,
      // however slowly the abort then reaches the transfer.
      failTooLarge(dataTask, announced: expected)
    } else {
      let status = (response as? HTTPURLResponse)?.statusCode
      transfers.withLock { transfers in
        transfers[id]?.status = status
        if expected > 0 { transfers[id]?.body.reserveCapacity(Int(expected)) }
      }
    }
    // Cancelling the task rather than answering `.cancel`: swift-corelibs-foundation never
    // completes a task whose response was refused with `.cancel`.
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let limit = maxBodyBytes
    let crossedLimit = transfers.withLock { transfers -> Bool in
      guard let count = transfers[dataTask.taskIdentifier]?.body.count else { return false }
      guard count + data.count <= limit else { return true }
      // Through the dictionary's subscript: appended where it lies, never copied out and back.
      transfers[dataTask.taskIdentifier]?.body.append(data)
      return false
    }
    if crossedLimit { failTooLarge(dataTask) }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    let id = task.taskIdentifier
    let location = response.value(forHTTPHeaderField: "Location")
    let decision = transfers.withLock { transfers -> RedirectPolicy.Decision? in
      guard let chain = transfers[id]?.chain else { return nil }
      let decision = RedirectPolicy.decide(location: location, chain: chain)
      if case .follow(let url) = decision { transfers[id]?.chain.append(url) }
      return decision
    }
    switch decision {
    case .follow(let url):
      var next = request
      next.url = url
      completionHandler(next)
    case .refuse(let reason):
      end(id, throwing: RedirectRefused(reason: reason))
      // Not followed: the session completes the task with the redirect itself, whose callbacks
      // find no transfer. No cancel: the redirect's body has been read already.
      completionHandler(nil)
    case nil:
      // The caller has gone (cancelled); the task is being cancelled too.
      completionHandler(nil)
    }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    // A response that never reached `didReceive response` (a 3xx without a Location, which
    // Foundation does not announce) still has its status on the task.
    let status = transfer.status ?? (task.response as? HTTPURLResponse)?.statusCode
    if let error {
      transfer.continuation.resume(throwing: error)
    } else if let status {
      transfer.continuation.resume(returning: FetchedAnswer(status: status, body: transfer.body))
    } else {
      transfer.continuation.resume(throwing: URLError(.badServerResponse))
    }
  }
}
