// What `publish` achieved, in the terms a person resuming it needs: how many keystrokes Redis
// stored, and the input line to start again from when not all were.
import RESP

/// How a ``KeystrokePublisher`` ended.
///
/// ```swift
/// let outcome = await publisher.finish()
/// if let line = outcome.resumeLine {
///   print("\(outcome.stored) of \(outcome.published) stored; resume from input line \(line)")
/// }
/// ```
package struct PublishOutcome: Sendable, Equatable {
  /// Keystrokes handed to ``KeystrokePublisher/publish(_:line:)``.
  package var published: Int
  /// Keystrokes Redis acknowledged (appended to their streams).
  package var stored: Int
  /// The input line of the first keystroke not acknowledged: every keystroke of an earlier line
  /// was stored. Nil when every keystroke was, or when they were published without lines.
  /// Keystrokes after it may have been stored too (delivery is at least once: resuming there
  /// repeats them, which changes no search).
  package var resumeLine: Int?
  /// Why the publisher ended before every keystroke was stored; nil when none went wrong (all
  /// stored, or stopped by ``KeystrokePublisher/stop()``).
  package var failure: PublishFailure?

  /// An outcome.
  package init(published: Int, stored: Int, resumeLine: Int?, failure: PublishFailure?) {
    self.published = published
    self.stored = stored
    self.resumeLine = resumeLine
    self.failure = failure
  }

  /// Whether every keystroke published was stored.
  package var isComplete: Bool { stored >= published && failure == nil }

  /// `1234 of 5000 keystrokes stored; resume from input line 1241`, for a message.
  package var storedText: String {
    let stored = "\(stored) of \(published) keystroke\(published == 1 ? "" : "s") stored"
    guard let resumeLine else { return stored }
    return stored + "; resume from input line \(resumeLine)"
  }
}

/// Why a ``KeystrokePublisher`` ended before every keystroke was stored.
package enum PublishFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// Redis refused a keystroke because it is out of memory (`maxmemory` reached under the
  /// `noeviction` policy): a temporary failure, the same keystrokes can be published once it has
  /// room.
  case outOfMemory(String)
  /// Redis refused a keystroke for another reason (a key of another type under the prefix…).
  case refused(String)
  /// A failure no new connection fixes: the password refused after a restart, a reply of a type
  /// the command never answers.
  case unusable(RESPError)
  /// The prefix no longer holds the shard count publishing uses
  /// (``ScaleOutError/shardCountChanged(stored:running:prefix:)``): Redis lost its data and
  /// another command created the prefix again.
  case prefixChanged(ScaleOutError)

  /// The failure of a refused keystroke.
  static func refusal(_ message: String) -> PublishFailure {
    RedisRefusal.isOutOfMemory(message) ? .outOfMemory(message) : .refused(message)
  }

  /// One line, without the address.
  package var description: String {
    switch self {
    case .outOfMemory(let message): "out of memory (\(message))"
    case .refused(let message): "refused a keystroke: \(message)"
    case .unusable(let error): "\(error)"
    case .prefixChanged(let error): "\(error)"
    }
  }
}
