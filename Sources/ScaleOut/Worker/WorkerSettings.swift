// A worker's settings, each with its default; docs/scale-out.md states them as the contract.
import RESP

/// How a worker runs on Redis.
package struct WorkerSettings: Sendable, Equatable {
  /// The worker's name: its consumer name in the groups and its member in the live set. Two
  /// live workers must not share one. Default `<host>-<pid>`.
  package var name: String
  /// How long a shard's lease lasts without renewal: a dead worker's shards move after at most
  /// this. Renewed every tenth of it. Default 5 s.
  package var lease: Duration
  /// Events kept per shard (older ones trimmed, approximately, as Redis trims). Default 10,000.
  package var eventsKept: Int
  /// Keystrokes read per shard per round. Default 1,000.
  package var readBatch: Int
  /// Events waiting for their commit beyond which the reader stops reading. Default 20,000.
  package var outboxLimit: Int
  /// Bytes of events waiting for their commit beyond which the reader stops reading (a results
  /// event of 75 items is about 10 KB). Default 8 MiB.
  package var outboxBytes: Int
  /// Timeouts of each connection.
  package var connection: RESPConnection.Options

  /// Settings with every default but the name.
  package init(
    name: String, lease: Duration = .seconds(5), eventsKept: Int = 10_000, readBatch: Int = 1_000,
    outboxLimit: Int = 20_000, outboxBytes: Int = 8 << 20,
    connection: RESPConnection.Options = RESPConnection.Options()
  ) {
    self.name = name
    self.lease = lease
    self.eventsKept = eventsKept
    self.readBatch = readBatch
    self.outboxLimit = outboxLimit
    self.outboxBytes = outboxBytes
    self.connection = connection
  }

  /// The gap between lease rounds (heartbeat, renewal, balancing): a tenth of the lease.
  var round: Duration { lease / 10 }

  /// The most bytes of events one commit carries (beyond its first event).
  var commitBytes: Int { 4 << 20 }

  /// Rounds between trims of the keystroke streams.
  var roundsPerTrim: Int { 20 }
}
