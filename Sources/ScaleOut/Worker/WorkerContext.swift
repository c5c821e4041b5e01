// What a worker's threads share: where Redis is, the keys, the shard count, the settings, and the
// three hand-offs between them (the ledger, the outbox, the holding board).
import RESP
import Synchronization

final class WorkerContext: Sendable {
  let endpoint: RedisEndpoint
  let keys: ScaleOutKeys
  let shardCount: Int
  let settings: WorkerSettings
  let notice: @Sendable (LinkNotice) -> Void
  let report: @Sendable (WorkerReport) -> Void
  let ledger = Mutex(SessionLedger())
  let outbox: EventOutbox
  let board: HoldingBoard
  /// The failure that ended the worker, if one did (credentials refused after a restart, a reply
  /// of the wrong type), whichever thread met it.
  let failure = Mutex<ScaleOutError?>(nil)

  init(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, shardCount: Int, settings: WorkerSettings,
    notice: @escaping @Sendable (LinkNotice) -> Void, report: @escaping @Sendable (WorkerReport) -> Void
  ) throws {
    self.endpoint = endpoint
    self.keys = keys
    self.shardCount = shardCount
    self.settings = settings
    self.notice = notice
    self.report = report
    outbox = try EventOutbox()
    board = try HoldingBoard()
  }

  /// Records a failure no reconnection fixes (credentials refused after a restart, a reply of a
  /// type no command gives) and wakes the reader, which ends the worker.
  func fail(_ error: RESPError) {
    fail(.unreachable(endpoint, error))
  }

  /// Records a failure that ends the worker (the shard count changed under it, say) and wakes the
  /// reader.
  func fail(_ error: ScaleOutError) {
    failure.withLock { failure in
      if failure == nil { failure = error }
    }
    board.changed.signal()
  }

  /// Whether a failure has ended the worker.
  var hasFailed: Bool { failure.withLock { $0 != nil } }

  /// Forgets a holding everywhere: the board, the ledger's sessions, the outbox's events.
  func forget(_ holding: ShardHolding) {
    board.lost(holding)
    ledger.withLock { $0.drop(holding) }
    outbox.drop(holding)
  }
}
