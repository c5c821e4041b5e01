// How HTTP statuses, URLSession errors and undecodable bodies become SearchError.
import Foundation
import Pipeline

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The failure rules of `ITunesSource`.
enum ITunesFailure {
  /// The longest excerpt of an undecodable body carried by `SearchError.decoding`.
  static let excerptLength = 120

  /// The error for a status that is neither 200 nor 404.
  static func searchError(forStatus status: Int) -> SearchError {
    switch status {
    // iTunes answers 403 with an empty body when a client exceeds its rate (about 20 a minute).
    case 403, 429: .rateLimited
    case 500...599: .server(status)
    default: .badStatus(status)
    }
  }

  /// The error to throw for a failed fetch: `CancellationError` for a cancelled request (Linux
  /// reports it as `URLError.cancelled`), a `SearchError` for anything else.
  static func searchError(for error: any Error) -> any Error {
    switch error {
    case is CancellationError, is SearchError:
      return error
    case let tooLarge as BodyTooLarge:
      let cap = "body over \(describe(bytes: tooLarge.limit))"
      guard let announced = tooLarge.announced else { return SearchError.decoding(cap) }
      return SearchError.decoding("\(cap): Content-Length announces \(announced) bytes, refused unread")
    case let refused as RedirectRefused:
      return SearchError.redirect(refused.reason)
    case let urlError as URLError:
      return searchError(for: urlError)
    default:
      return SearchError.offline(String(describing: error))
    }
  }

  private static func searchError(for error: URLError) -> any Error {
    let host = error.failingURL?.host.map { " (\($0))" } ?? ""
    switch error.code {
    case .cancelled: return CancellationError()
    case .timedOut: return SearchError.timedOut
    case .cannotConnectToHost: return SearchError.offline("cannot connect to the host\(host)")
    case .notConnectedToInternet: return SearchError.offline("not connected to the internet")
    case .cannotFindHost: return SearchError.offline("cannot find the host\(host)")
    case .dnsLookupFailed: return SearchError.offline("DNS lookup failed\(host)")
    case .networkConnectionLost: return SearchError.offline("the connection was lost\(host)")
    // Foundation's own limit (20); RedirectPolicy stops sooner, so this is a safety net.
    case .httpTooManyRedirects: return SearchError.redirect("too many redirects\(host)")
    // Anything else the transport reports (a reset, a malformed answer) also means no usable
    // connection to the service; the code is kept for people.
    default: return SearchError.offline("transfer failed (URLError \(error.code.rawValue))\(host)")
    }
  }

  /// A one-line excerpt of `body` of at most `excerptLength` characters: control characters and
  /// runs of whitespace become one space; "empty body" when there is nothing to show.
  static func excerpt(of body: Data) -> String {
    // Four bytes per character at most, plus slack for the whitespace that collapses.
    let text = String(decoding: body.prefix(excerptLength * 8), as: UTF8.self)
    var line = ""
    var pendingSpace = false
    for character in text {
      if character.isWhitespace || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
        pendingSpace = !line.isEmpty
        continue
      }
      if pendingSpace { line.append(" ") }
      pendingSpace = false
      line.append(character)
      if line.count > excerptLength { break }
    }
    guard !line.isEmpty else { return "empty body" }
    return line.count > excerptLength ? String(line.prefix(excerptLength - 1)) + "…" : line
  }

  private static func describe(bytes: Int) -> String {
    bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
  }
}
