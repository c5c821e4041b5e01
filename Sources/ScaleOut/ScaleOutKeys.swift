// The names of everything stream-search keeps on Redis under one prefix: the contract a web tier
// in any language publishes and reads against (docs/scale-out.md lists each key and field).

/// The Redis keys of one deployment (one `--redis-prefix`).
///
/// Each shard's keys share the hash tag `{prefix:shard}`, so that in Redis Cluster they live in
/// one slot and the scripts that touch several of them (the fenced commit: lease, keystrokes,
/// events) run there.
///
/// ```swift
/// let keys = try ScaleOutKeys(prefix: "stream-search")
/// keys.keystrokes(shard: 3)   // "{stream-search:3}:keys"
/// keys.events(shard: 3)       // "{stream-search:3}:events"
/// ```
package struct ScaleOutKeys: Sendable, Hashable {
  /// The default prefix.
  package static let defaultPrefix = "stream-search"
  /// The consumer group of the keystroke streams.
  package static let group = "workers"

  /// The prefix every key starts with (inside the hash tag for a shard's keys).
  package let prefix: String

  /// The keys under `prefix`.
  ///
  /// - Throws: ``ScaleOutError/invalidPrefix(_:)`` unless the prefix is 1 to 64 letters, digits,
  ///   `-`, `_`, `.` or `:` (braces would break the hash tag).
  package init(prefix: String) throws(ScaleOutError) {
    let allowed = prefix.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: ":")
    }
    guard !prefix.isEmpty, prefix.utf8.count <= 64, allowed else { throw .invalidPrefix(prefix) }
    self.prefix = prefix
  }

  /// The hash with the deployment's settings: `shards` (fixed at first use) and `format`.
  package var configuration: String { "\(prefix):config" }
  /// The sorted set of live workers: member the worker's name, score the server time (ms) until
  /// which it counts as live.
  package var workers: String { "\(prefix):workers" }
  /// The shared answers of the sources (one key per answer).
  package func answer(_ key: String) -> String { "\(prefix):answer:\(key)" }
  /// The answers' last uses: a sorted set of answer keys by the instant (ms) each was last used.
  package var answers: String { "\(prefix):answers" }
  /// The shared rate budget of a source: a sorted set of requests (member the request's id, score
  /// the instant its permit was granted). Its hash tag keeps it in one slot with its ends.
  package func budget(_ name: String) -> String { "{\(prefix):budget:\(name)}" }
  /// The ends of a budget's requests: a hash, request id → the instant (ms) it ended.
  package func budgetEnds(_ name: String) -> String { "\(budget(name)):ended" }

  /// The stream a shard's keystrokes are appended to.
  package func keystrokes(shard: Int) -> String { "\(tag(shard)):keys" }
  /// The stream a shard's events are appended to.
  package func events(shard: Int) -> String { "\(tag(shard)):events" }
  /// The shard's lease: `<token>:<worker>`, expiring unless renewed.
  package func lease(shard: Int) -> String { "\(tag(shard)):lease" }
  /// The shard's fencing counter: each lease's token is the next value.
  package func fence(shard: Int) -> String { "\(tag(shard)):fence" }
  /// The shard's open searches: session → the search still waiting for its end (workers' own).
  package func openSearches(shard: Int) -> String { "\(tag(shard)):open" }
  /// The id of the batch of events last committed to the shard: a batch sent again after a lost
  /// reply finds its id here and is not committed twice.
  package func lastBatch(shard: Int) -> String { "\(tag(shard)):batch" }

  private func tag(_ shard: Int) -> String { "{\(prefix):\(shard)}" }
}
