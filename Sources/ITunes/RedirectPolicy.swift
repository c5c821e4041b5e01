// Which HTTP redirects a request to a search service follows, and why the others are refused.
//
// A redirect is a request the rate budget never sees and a place the user never named, so only
// the few a service plausibly needs are followed: http(s), never from https down to http (the
// typed term would then travel in the clear), never back to a URL already asked in the same
// chain, and at most `maximumRedirects`. Another host or port is followed: a service that moved
// says so this way, and it can do no more harm than the server the user chose.
//
// The target is read from the response's `Location` header, resolved against the URL that
// answered (RFC 3986), not from the request Foundation prepared: on Linux Foundation reads
// `file:///etc/passwd` as a path on the same host and would ask the server for `/etc/passwd`.
import Foundation
import Pipeline

/// The rule for following redirects, as a pure function of the chain so far.
enum RedirectPolicy {
  /// The most redirects one request follows.
  static let maximumRedirects = 5

  /// What to do with one redirect.
  enum Decision: Sendable, Hashable {
    /// Ask `URL` next.
    case follow(URL)
    /// Stop; the reason, for people, completes "redirect not followed: …".
    case refuse(String)
  }

  /// The decision for a redirect from `chain.last` to `location`.
  ///
  /// - Parameters:
  ///   - location: the `Location` header; nil when absent.
  ///   - chain: every URL asked so far for this request, the original first.
  static func decide(location: String?, chain: [URL]) -> Decision {
    guard let location, let current = chain.last,
      let target = URL(string: location, relativeTo: current)?.absoluteURL
    else {
      return .refuse("its Location is missing or not a URL")
    }
    let scheme = target.scheme?.lowercased() ?? ""
    guard scheme == "http" || scheme == "https" else {
      return .refuse("\(shown(target)) is neither http nor https")
    }
    if current.scheme?.lowercased() == "https" && scheme == "http" {
      return .refuse("from https down to \(shown(target))")
    }
    if chain.contains(where: { $0.absoluteString == target.absoluteString }) {
      return .refuse("a loop back to \(shown(target))")
    }
    guard chain.count <= maximumRedirects else {
      return .refuse("more than \(maximumRedirects) redirects")
    }
    return .follow(target)
  }

  /// The URL as a message shows it: at most 100 characters, the query left out (it repeats the
  /// term, and a hostile server can make it as long as it likes).
  private static func shown(_ url: URL) -> String {
    var text = url.absoluteString
    if let query = text.firstIndex(of: "?") { text = String(text[..<query]) + "?…" }
    return text.count > 100 ? String(text.prefix(99)) + "…" : text
  }
}
