// The query string of an iTunes search, built by hand so that every term reaches the server as typed.
//
// `URLComponents` and `.urlQueryAllowed` leave `&`, `=`, `+` and `/` alone in a query value, and
// a server reads a literal `+` as a space; a term such as "AC/DC & Queen+Bowie" or
// "rock&media=software" would be cut apart or inject parameters. So every byte but the few that
// can never mean anything is percent-encoded, and the string is assembled here.
import Pipeline

/// Builds the query string of iTunes Search API requests.
enum ITunesQuery {
  /// The largest `limit` iTunes accepts.
  static let maximumLimit = 200

  /// `value` percent-encoded byte by byte (UTF-8): ASCII letters, digits and `.-_*` stay, every
  /// other byte becomes `%XX` (a space is `%20`, never `+`). The text is not normalised, so
  /// decomposed and precomposed accents reach the server as they were given.
  static func encode(_ value: String) -> String {
    var encoded = ""
    encoded.reserveCapacity(value.utf8.count)
    for byte in value.utf8 {
      if isUnreserved(byte) {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        encoded += "%"
        encoded.unicodeScalars.append(hexDigit(byte >> 4))
        encoded.unicodeScalars.append(hexDigit(byte & 0x0F))
      }
    }
    return encoded
  }

  /// `limit` clamped to what iTunes accepts, 1 to 200.
  static func clampedLimit(_ limit: Int) -> Int {
    min(max(limit, 1), maximumLimit)
  }

  /// The `name=value` pairs of a search for `request`, in a fixed order: term, media, entity,
  /// limit, country, lang, explicit. `media` nil means `all` with no entity (single-request mode).
  static func parameters(for request: SearchRequest, media: String, entity: String?, limit: Int)
    -> [(name: String, value: String)]
  {
    var pairs: [(name: String, value: String)] = [("term", request.term), ("media", media)]
    if let entity { pairs.append(("entity", entity)) }
    pairs.append(("limit", String(clampedLimit(limit))))
    pairs.append(("country", request.country))
    if let language = request.language { pairs.append(("lang", language)) }
    if let explicit = request.explicit { pairs.append(("explicit", explicit ? "Yes" : "No")) }
    return pairs
  }

  /// The query string (without `?`) of `pairs`, each name and value encoded by `encode(_:)`.
  static func string(_ pairs: [(name: String, value: String)]) -> String {
    pairs.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
      UInt8(ascii: "_"), UInt8(ascii: "*"):
      true
    default:
      false
    }
  }

  private static func hexDigit(_ nibble: UInt8) -> Unicode.Scalar {
    Unicode.Scalar(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10)
  }
}
