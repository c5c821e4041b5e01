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
  /// The failure that ended the reader, if one did (credentials refused after a restart, say).
  let failure = Mutex<RESPError?>(nil)

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

  /// Forgets a holding everywhere: the board, the ledger's sessions, the outbox's events.
  func forget(_ holding: ShardHolding) {
    board.lost(holding)
    ledger.withLock { $0.drop(holding) }
    outbox.drop(holding)
  }
}
