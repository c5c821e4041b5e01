// The iTunes Search API as a SearchSource: one HTTP GET per search, or one for several categories.
import Foundation
import Pipeline

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Searches the iTunes Search API (or any server that answers in its shape).
///
/// Useful as the live backend of the pipeline; tests point `baseURL` at a loopback server.
///
/// ```swift
/// let source = ITunesSource(requestTimeout: .seconds(10))
/// let songs = try await source.search(SearchRequest(term: "AC/DC", category: .music, limit: 10))
/// ```
///
/// - Failure: a status or transport failure becomes a `SearchError` (see `search(_:)`).
/// - Cancellation: cancelling the calling task aborts the HTTP request and the search throws
///   `CancellationError`.
/// - Caveat: the source runs its requests on a private session made from `session`'s
///   configuration, because the body-size cap needs a session delegate (see `BoundedFetcher`).
public final class ITunesSource: MultiCategorySearchSource {
  /// `https://itunes.apple.com/search`.
  public static let defaultBaseURL: URL =
    URL(string: "https://itunes.apple.com/search") ?? URL(fileURLWithPath: "/search")  // the literal is valid

  /// The search endpoint; the query string is appended to it.
  public let baseURL: URL
  /// The largest body accepted, in bytes; a larger answer fails with `SearchError.decoding`.
  public let maxBodyBytes: Int
  /// The request's timeout (`URLRequest.timeoutInterval`); nil keeps the session's. On Linux it
  /// is rounded up to whole seconds, the resolution of swift-corelibs-foundation's timer.
  public let requestTimeout: Duration?
  /// "itunes" for the default endpoint, else the endpoint's URL.
  public let name: String
  /// True: answers come from the iTunes Search API (events say `network`).
  public var isRemote: Bool { true }
  /// True: each call waits on a real HTTP exchange, which a replay's runner waits for.
  public var performsRealIO: Bool { true }
  private let fetcher: BoundedFetcher

  /// Creates a source.
  ///
  /// - Parameters:
  ///   - baseURL: the search endpoint.
  ///   - session: whose configuration (timeouts, proxies, headers, cache) the source's own
  ///     session copies.
  ///   - maxBodyBytes: the body-size cap, 8 MiB by default.
  ///   - requestTimeout: how long a request may go without data before it fails with `timedOut`.
  public init(
    baseURL: URL = ITunesSource.defaultBaseURL, session: URLSession = .shared,
    maxBodyBytes: Int = 8 << 20, requestTimeout: Duration? = nil
  ) {
    self.baseURL = baseURL
    self.maxBodyBytes = maxBodyBytes
    self.requestTimeout = requestTimeout
    self.name = baseURL == Self.defaultBaseURL ? "itunes" : baseURL.absoluteString
    self.fetcher = BoundedFetcher(configuration: session.configuration, maxBodyBytes: maxBodyBytes)
  }

  /// The items matching `request`: one request with the category's `media` and `entity`.
  ///
  /// Status 200 is decoded (results without an identifier are skipped; text that is not valid
  /// UTF-8, or an unpaired surrogate escape, becomes U+FFFD); 404 means no results; 403 and 429
  /// throw `rateLimited`; 5xx `server(code)`; any other status `badStatus(code)`. A body that
  /// does not decode, or is over `maxBodyBytes` once decompressed, throws `decoding`; a timeout
  /// `timedOut`; a refused or lost connection `offline`; a redirect to anything but http(s), from
  /// https to http, in a loop or beyond five hops, `redirect`.
  ///
  /// - Returns: at most `request.limit` (clamped to 1…200) items, in the order of the answer.
  /// - Throws: `SearchError`, or `CancellationError` when the task is cancelled.
  public func search(_ request: SearchRequest) async throws -> [SearchItem] {
    let limit = ITunesQuery.clampedLimit(request.limit)
    let category = request.category
    let parameters = ITunesQuery.parameters(
      for: request, media: category.media, entity: category.entity, limit: limit
    )
    return Array(try await items(for: parameters).prefix(limit))
  }

  /// The items matching `request.term` in each of `categories`, from one `media=all` request
  /// (no entity) asking for `request.limit` × the number of categories (at most 200); the
  /// results are split with `Category(kind:wrapperType:)`.
  ///
  /// - Returns: an entry for every asked category, each at most `request.limit` items.
  /// - Throws: as `search(_:)`.
  public func search(_ request: SearchRequest, categories: [Category]) async throws -> [Category: [SearchItem]] {
    var grouped: [Category: [SearchItem]] = [:]
    for category in categories { grouped[category] = [] }
    guard !grouped.isEmpty else { return grouped }
    let limit = ITunesQuery.clampedLimit(request.limit)
    let parameters = ITunesQuery.parameters(
      for: request, media: "all", entity: nil, limit: limit * grouped.count
    )
    for item in try await items(for: parameters) {
      guard let category = Category(kind: item.kind, wrapperType: item.wrapperType),
        let kept = grouped[category], kept.count < limit
      else { continue }
      grouped[category, default: []].append(item)
    }
    return grouped
  }

  /// Sends one request and interprets the answer.
  private func items(for parameters: [(name: String, value: String)]) async throws -> [SearchItem] {
    let answer: FetchedAnswer
    do {
      answer = try await fetcher.fetch(try urlRequest(parameters))
    } catch {
      throw ITunesFailure.searchError(for: error)
    }
    // An answer that raced the cancellation is dropped: a cancelled search always throws.
    try Task.checkCancellation()
    switch answer.status {
    case 200:
      do {
        return try JSONDecoder().decode(ITunesResponse.self, from: JSONTextRepair.repaired(answer.body)).results
      } catch {
        throw SearchError.decoding(ITunesFailure.excerpt(of: answer.body))
      }
    case 404:
      return []
    default:
      throw ITunesFailure.searchError(forStatus: answer.status)
    }
  }

  private func urlRequest(_ parameters: [(name: String, value: String)]) throws -> URLRequest {
    let base = baseURL.absoluteString
    let separator = base.contains("?") ? "&" : "?"
    let text = base + separator + ITunesQuery.string(parameters)
    guard let url = URL(string: text) else {
      throw SearchError.offline("cannot form a request URL from \(base)")
    }
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let requestTimeout {
      let parts = requestTimeout.components
      var seconds = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
      #if canImport(FoundationNetworking)
        // swift-corelibs-foundation truncates the interval to whole seconds (0.3 s would be 0,
        // failing every request at once), so round up instead.
        seconds = max(1, seconds.rounded(.up))
      #endif
      request.timeoutInterval = seconds
    }
    return request
  }
}
