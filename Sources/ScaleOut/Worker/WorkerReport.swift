// What a worker reports about its shards, for a `--verbose` log; the library prints nothing.

/// A change in what a worker holds, or a refusal worth knowing about.
package enum WorkerReport: Sendable, Equatable, CustomStringConvertible {
  /// The worker took shard `shard` with the lease `lease` (`<token>:<worker>`).
  case acquired(shard: Int, lease: String)
  /// The worker gave the shard back to balance the load, or on shutdown.
  case released(shard: Int)
  /// The worker's lease on the shard ran out or was taken (it was paused, or cut off).
  case lost(shard: Int)
  /// A commit for the shard was refused: its lease is no longer this worker's.
  case fencedOut(shard: Int)
  /// Redis refused a commit for the shard with this error.
  case commitFailed(shard: Int, message: String)
  /// The prefix's configuration was gone (Redis flushed, or restarted without its data) and the
  /// worker stored it again with its shard count.
  case restoredConfiguration(shards: Int)
  /// The keystroke stream of the shard was trimmed of this many entries, all acknowledged.
  case trimmed(shard: Int, count: Int)

  /// One log line, e.g. `[worker] acquired shard 3 (lease 17:w1)`.
  package var description: String {
    switch self {
    case .acquired(let shard, let lease): "[worker] acquired shard \(shard) (lease \(lease))"
    case .released(let shard): "[worker] released shard \(shard)"
    case .lost(let shard): "[worker] lost shard \(shard): its lease ran out or was taken"
    case .fencedOut(let shard): "[worker] a commit for shard \(shard) was refused: the lease is no longer ours"
    case .commitFailed(let shard, let message): "[worker] a commit for shard \(shard) failed: \(message)"
    case .restoredConfiguration(let shards):
      "[worker] stored the configuration again with \(shards) shards: it was gone (Redis flushed, or restarted "
        + "without its data)"
    case .trimmed(let shard, let count): "[worker] trimmed \(count) acknowledged keystrokes of shard \(shard)"
    }
  }
}
