// A handler that answers a term's requests from a script: the nth request for a term gets the
// nth reply, later ones the last; other terms get a normal answer.
import Foundation
import Synchronization
import TestSupport

/// Scripted replies per term, counted across the server's connection threads.
final class ReplyScript: Sendable {
  private let script: [String: [Reply]]
  private let served = Mutex<[String: Int]>([:])

  init(_ script: [String: [Reply]]) { self.script = script }

  /// The server handler.
  var handler: LoopbackHTTPServer.Handler {
    { [self] request in
      let term = request.value(of: "term") ?? ""
      guard let replies = script[term], let last = replies.last else { return .json(answerBody(for: term)) }
      let index = served.withLock { served in
        defer { served[term, default: 0] += 1 }
        return served[term, default: 0]
      }
      return index < replies.count ? replies[index] : last
    }
  }
}
