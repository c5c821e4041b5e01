// Serves recorded iTunes answers from the loopback server, chosen by the request's term and media.
import Foundation

/// Which recorded answer a request gets: by its decoded `term` and `media` parameters.
public struct FixtureKey: Sendable, Hashable {
  /// The decoded `term` the request must carry.
  public var term: String
  /// The decoded `media` it must carry; nil matches a request without one.
  public var media: String?

  /// Creates a key.
  public init(term: String, media: String?) {
    self.term = term
    self.media = media
  }
}

/// A handler that answers with fixture files.
public enum FixtureRoutes {
  /// The body served for a request no route matches: an empty iTunes answer.
  public static let emptyAnswer = #"{"resultCount": 0, "results": []}"#

  /// A handler answering each routed (term, media) with its file's bytes as JSON, and any other
  /// request with `emptyAnswer`. The files are read once, now.
  ///
  /// - Throws: the file system's error when a file cannot be read.
  public static func handler(_ routes: [FixtureKey: URL]) throws -> LoopbackHTTPServer.Handler {
    let bodies = try routes.mapValues { try Data(contentsOf: $0) }
    return { request in
      let key = FixtureKey(term: request.value(of: "term") ?? "", media: request.value(of: "media"))
      return bodies[key].map { Reply.json($0) } ?? Reply.json(emptyAnswer)
    }
  }
}
