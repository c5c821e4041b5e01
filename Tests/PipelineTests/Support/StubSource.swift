// A source for tests: answers after a latency on the test's clock, counts every request, and
// fails for the terms it is told to.
import Pipeline
import Streams
import Synchronization

/// A `SearchSource` that records each request and answers with made-up items after `latency`.
final class StubSource: SearchSource, MultiCategorySearchSource {
  let name: String
  let isRemote: Bool
  private let latency: Duration
  private let latencies: [Category: Duration]
  private let clock: ManualClock
  private let failures: [String: SearchError]
  private let log = Mutex<[SearchRequest]>([])
  /// Errors the next requests fail with, one each, before answering normally again.
  private let scriptedFailures = Mutex<[SearchError]>([])

  /// Answers the first request, then fails every later one with `error`.
  func failAfterFirst(_ error: SearchError) { failingAfterFirst.withLock { $0 = error } }
  private let failingAfterFirst = Mutex<SearchError?>(nil)

  /// Makes the next requests fail with `errors`, in order.
  func failNext(_ errors: [SearchError]) { scriptedFailures.withLock { $0 = errors } }
  private let cancelledLog = Mutex<[SearchRequest]>([])

  init(
    name: String = "stub", isRemote: Bool = false, latency: Duration = .zero, clock: ManualClock,
    failures: [String: SearchError] = [:], latencies: [Category: Duration] = [:]
  ) {
    self.latencies = latencies
    self.name = name
    self.isRemote = isRemote
    self.latency = latency
    self.clock = clock
    self.failures = failures
  }

  /// Every request received, in order.
  var requests: [SearchRequest] { log.withLock { $0 } }
  /// Requests whose task was cancelled while they waited.
  var cancelledRequests: [SearchRequest] { cancelledLog.withLock { $0 } }

  func search(_ request: SearchRequest) async throws -> [SearchItem] {
    log.withLock { $0.append(request) }
    let wait = latencies[request.category] ?? latency
    if wait > .zero {
      do {
        try await clock.sleep(for: wait)
      } catch {
        cancelledLog.withLock { $0.append(request) }
        throw error
      }
    }
    if let scripted = scriptedFailures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw scripted }
    if let failure = failingAfterFirst.withLock({ $0 }), log.withLock({ $0.count }) > 1 { throw failure }
    if let failure = failures[request.term.lowercased()] ?? failures["\(request.category.rawValue):*"] {
      throw failure
    }
    return (0..<min(request.limit, 2)).map { index in
      SearchItem(
        id: abs(request.term.hashValue % 1_000_000) * 10 + index, kind: request.category.entity,
        trackName: "\(request.term) \(request.category.rawValue) \(index)")
    }
  }

  func search(_ request: SearchRequest, categories: [Category]) async throws -> [Category: [SearchItem]] {
    var answer: [Category: [SearchItem]] = [:]
    let items = try await search(request)
    for category in categories { answer[category] = items }
    return answer
  }
}
