// The committer thread: takes the outbox's events in order and commits them, every shard's part in
// one fenced transaction. A shard refused by the fence (the lease is gone) drops its events: the
// shard's next owner processes those keystrokes again.
import Foundation
import LineIO
import RESP
import Streams
import Synchronization

final class EventCommitter: Sendable {
  private let context: WorkerContext
  /// Fired by the worker once the outbox is flushed or the flush took too long.
  let stop: CancellationSignal
  private let finished: CancellationSignal
  private let draining = AtomicFlag()
  /// How long the committer waits for more after committing fewer than `lingerBelow` events.
  static let linger = Duration.milliseconds(2)
  static let lingerBelow = 128
  /// Counts the commit round trips: with the lease, a batch's id, the same when it is sent again.
  private let batches = Atomic<Int>(0)

  init(context: WorkerContext) throws {
    self.context = context
    stop = try CancellationSignal()
    finished = try CancellationSignal()
  }

  func start() {
    let thread = Thread { [self] in
      run()
      finished.signal()
    }
    thread.name = "EventCommitter"
    thread.start()
  }

  /// Commits what the outbox holds, then ends; waits at most `limit` for that.
  func flushAndStop(within limit: Duration) {
    draining.set()
    context.outbox.arrived.signal()
    if !wait(finished, for: limit) {
      stop.signal()
      _ = wait(finished, for: .seconds(5))
    }
  }

  private func run() {
    let link = RedisLink(
      endpoint: context.endpoint, options: context.settings.connection, stop: stop, notice: context.notice)
    defer { link.close() }
    let clock = ContinuousClock()
    while !stop.isSignalled {
      let items = context.outbox.take(limit: 2_000, bytes: context.settings.commitBytes)
      if items.isEmpty {
        if draining.isSet { return }
        context.outbox.arrived.wait(timeout: .seconds(1), clock: clock, stop: stop)
        continue
      }
      do throws(LinkFailure) {
        try commit(items, link: link)
      } catch {
        // Stopped, or a failure no reconnection fixes (which ends the worker): what is left is
        // processed again by the shards' next owners.
        if case .fatal(let error) = error { context.fail(error) }
        return
      }
      // A small batch: the next waits a moment for more, so that at a steady trickle a commit
      // (two round trips and a transaction) carries many events, not one or two.
      if items.count < Self.lingerBelow, !draining.isSet {
        if StopWait.wait(for: Self.linger, clock: clock, stop: stop) { return }
      }
    }
  }

  private func commit(_ items: [CommitItem], link: RedisLink) throws(LinkFailure) {
    var order: [ShardHolding] = []
    var byHolding: [ShardHolding: [CommitItem]] = [:]
    for item in items {
      if byHolding[item.holding] == nil { order.append(item.holding) }
      byHolding[item.holding, default: []].append(item)
    }
    let batch = batches.add(1, ordering: .relaxed).newValue
    let shardBatches = order.map { holding in
      ShardBatch(holding: holding, id: "\(holding.lease)#\(batch)", items: byHolding[holding] ?? [])
    }
    let keys = context.keys
    let kept = context.settings.eventsKept
    var outcomes: [ShardHolding: FencedCommitOutcome]?
    var full = FullRedisWait()
    while true {
      // A shard changing hands voids the transaction: decided again from what the server holds
      // then (the shard that moved is then fenced out, the others committed).
      if try link.isCluster() {
        outcomes = try commitEach(shardBatches, link: link)
      } else {
        repeat {
          outcomes = try link.perform {
            (nodes: LinkNodes) throws(RESPError) -> [ShardHolding: FencedCommitOutcome]? in
            try FencedCommit.commit(shardBatches, keys: keys, eventsKept: kept, on: nodes.connection(for: ""))
          }
        } while outcomes == nil && !stop.isSignalled
      }
      // A full Redis refuses the whole transaction: the events wait (the reader stops once the
      // outbox is full) and the same batch is tried again. Its id makes a repeat harmless.
      guard let refusal = Self.outOfMemory(in: outcomes) else { break }
      if full.refused(refusal, notice: context.notice, stop: stop) { throw .stopped }
    }
    full.succeeded(notice: context.notice)
    for holding in order {
      switch outcomes?[holding] {
      case .failed(let message): context.report(.commitFailed(shard: holding.shard, message: message))
      case .fencedOut: context.report(.fencedOut(shard: holding.shard))
      case .committed, nil: break
      }
    }
  }

  /// In a cluster each shard's keys are a slot of their own: one fenced commit per shard, on its
  /// master, acknowledged only once a replica has it (when the master has one), so that a
  /// failover of that master cannot lose a commit whose keystrokes were acknowledged. A commit
  /// whose wait failed is sent again: its batch id makes it a no-op where it was stored.
  private func commitEach(_ batches: [ShardBatch], link: RedisLink) throws(LinkFailure)
    -> [ShardHolding: FencedCommitOutcome]
  {
    let keys = context.keys
    let kept = context.settings.eventsKept
    var outcomes: [ShardHolding: FencedCommitOutcome] = [:]
    for batch in batches {
      let fence = keys.fence(shard: batch.holding.shard)
      var outcome: FencedCommitOutcome?
      repeat {
        outcome = try link.perform { (nodes: LinkNodes) throws(RESPError) -> FencedCommitOutcome? in
          let connection = try nodes.connection(for: fence)
          let done = try FencedCommit.commit([batch], keys: keys, eventsKept: kept, on: connection)?[batch.holding]
          if done == .committed { try nodes.waitForReplica(of: fence, on: connection) }
          return done
        }
      } while outcome == nil && !stop.isSignalled
      if let outcome { outcomes[batch.holding] = outcome }
    }
    return outcomes
  }

  /// Redis's out-of-memory refusal among `outcomes`, if there is one.
  private static func outOfMemory(in outcomes: [ShardHolding: FencedCommitOutcome]?) -> String? {
    for outcome in (outcomes ?? [:]).values {
      if case .failed(let message) = outcome, RedisRefusal.isOutOfMemory(message) { return message }
    }
    return nil
  }

  private func wait(_ signal: CancellationSignal, for limit: Duration) -> Bool {
    StopWait.wait(for: limit, clock: ContinuousClock(), stop: signal)
  }
}
