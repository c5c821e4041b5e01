// The one protocol every backend implements: the iTunes Search API, the offline catalog, and
// the counting stubs of the tests.

/// What one request asks of a source: a term in one category.
public struct SearchRequest: Sendable, Hashable {
  /// The term as the user typed it, trimmed and with inner whitespace collapsed.
  public var term: String
  /// The category searched (its iTunes `media` and `entity`).
  public var category: Category
  /// How many items at most, 1 to 200.
  public var limit: Int
  /// The two-letter store country, e.g. "US".
  public var country: String
  /// The iTunes `lang` parameter, e.g. "en_us"; nil leaves it out.
  public var language: String?
  /// The iTunes `explicit` parameter; nil leaves it out.
  public var explicit: Bool?

  /// Creates a request.
  public init(
    term: String, category: Category, limit: Int = 25, country: String = "US",
    language: String? = nil, explicit: Bool? = nil
  ) {
    self.term = term
    self.category = category
    self.limit = limit
    self.country = country
    self.language = language
    self.explicit = explicit
  }
}

/// A backend that answers searches.
///
/// Implementations must be cancellable: when the calling task is cancelled, stop the work
/// (abort a network request) and throw `CancellationError`.
///
/// A stub for tests needs only `name` and `search(_:)`; its simulated latency sleeps on the
/// clock the test drives:
///
/// ```swift
/// struct SlowStub: SearchSource {
///   let clock: ManualClock
///   var name: String { "stub" }
///   func search(_ request: SearchRequest) async throws -> [SearchItem] {
///     try await clock.sleep(for: .milliseconds(120))
///     return []
///   }
/// }
/// ```
public protocol SearchSource: Sendable {
  /// A short stable name ("catalog", "itunes", or the server's URL), part of every cache key.
  var name: String { get }

  /// Whether answers come from a remote service. Defaults to false.
  ///
  /// It is a label, nothing more: a fresh answer's category results report `source: network`
  /// rather than `catalog` in events. A stub standing in for a remote service may say true and
  /// still sleep its latency on a test clock.
  var isRemote: Bool { get }

  /// Whether a call waits on real I/O, in real time. Defaults to false.
  ///
  /// True makes the pipeline wrap each call in `withExternalWork`, so a `VirtualTimeRunner`
  /// replaying over a real server waits for the answer instead of moving virtual time past it.
  /// Only sources that do real I/O (`ITunesSource`) say true. A stub whose latency sleeps on a
  /// test clock keeps the default: its wait is virtual time, which the runner moves itself.
  var performsRealIO: Bool { get }

  /// Whether answers come over a real network, in real time: `isRemote` and `performsRealIO`
  /// in one flag. Defaults to false.
  @available(*, deprecated, message: "say isRemote for the events' label and performsRealIO for virtual time")
  var isNetwork: Bool { get }

  /// The items matching `request`, at most `request.limit` of them, best first.
  ///
  /// - Throws: `SearchError` for a failure, `CancellationError` when the task was cancelled.
  func search(_ request: SearchRequest) async throws -> [SearchItem]
}

extension SearchSource {
  /// A source that still says `isNetwork` keeps its meaning for one release: its answers are
  /// labelled and awaited as before.
  public var isRemote: Bool { DeprecatedNetworkFlag.isNetwork(self) }

  /// Sources are local (a catalog, a stub) unless they say they do real I/O; a wrong false
  /// costs a replay over a real server its determinism, a wrong true once deadlocked stubs.
  public var performsRealIO: Bool { DeprecatedNetworkFlag.isNetwork(self) }

  /// False: sources are local unless they say otherwise.
  @available(*, deprecated, message: "say isRemote for the events' label and performsRealIO for virtual time")
  public var isNetwork: Bool { false }
}

/// Why a source could not answer.
public enum SearchError: Error, Sendable, Hashable {
  /// The service refused for exceeding its rate (iTunes: 403 with an empty body, or 429).
  case rateLimited
  /// No connection: refused, unreachable, DNS failure.
  case offline(String)
  /// No answer within the timeout.
  case timedOut
  /// The service failed: a 5xx status.
  case server(Int)
  /// A status that is neither success, rate limiting, not-found nor a server error.
  case badStatus(Int)
  /// The body could not be decoded; carries a short excerpt of it.
  case decoding(String)
  /// The service redirected somewhere the source does not follow (another scheme than http(s),
  /// https to http, a loop, too many hops); carries why.
  case redirect(String)

  /// The kind, as written in events: rateLimited, offline, timedOut, server, badStatus, decoding,
  /// redirect.
  public var kind: String {
    switch self {
    case .rateLimited: "rateLimited"
    case .offline: "offline"
    case .timedOut: "timedOut"
    case .server: "server"
    case .badStatus: "badStatus"
    case .decoding: "decoding"
    case .redirect: "redirect"
    }
  }

  /// A one-line explanation for people.
  public var message: String {
    switch self {
    case .rateLimited: "the service refused the request: rate limit exceeded"
    case .offline(let reason): "cannot reach the service: \(reason)"
    case .timedOut: "no answer within the timeout"
    case .server(let code): "the service failed with status \(code)"
    case .badStatus(let code): "unexpected status \(code)"
    case .decoding(let excerpt): "cannot decode the answer: \(excerpt)"
    case .redirect(let reason): "redirect not followed: \(reason)"
    }
  }
}

/// A backend that can answer several categories with one request (iTunes' `media=all`).
///
/// Useful to spend one request instead of one per category when a service limits the rate.
public protocol MultiCategorySearchSource: SearchSource {
  /// The items matching `request.term` in each of `categories` (`request.category` is ignored),
  /// at most `request.limit` per category, best first. Every asked category has an entry, empty
  /// when nothing matched; items of other categories are dropped.
  ///
  /// - Throws: `SearchError` for a failure, `CancellationError` when the task was cancelled.
  func search(_ request: SearchRequest, categories: [Category]) async throws -> [Category: [SearchItem]]
}
