// The committer thread: takes the outbox's events in order and commits them, one fenced script
// call per shard per round trip, every shard's call in one pipeline. A call refused by the fence
// (the lease is gone) drops its events: the shard's next owner processes those keystrokes again.
import Foundation
import RESP
import Streams
import Synchronization

final class EventCommitter: Sendable {
  private let context: WorkerContext
  /// Fired by the worker once the outbox is flushed or the flush took too long.
  let stop: CancellationSignal
  private let finished: CancellationSignal
  private let draining = AtomicFlag()
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
      let items = context.outbox.take(limit: 2_000)
      if items.isEmpty {
        if draining.isSet { return }
        context.outbox.arrived.wait(timeout: .seconds(1), clock: clock, stop: stop)
        continue
      }
      do throws(LinkFailure) {
        try commit(items, link: link)
      } catch {
        // Stopped, or a failure no reconnection fixes: what is left is processed again by the
        // shards' next owners.
        return
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
    let calls = order.map { holding in call(for: byHolding[holding] ?? [], of: holding, batch: batch) }
    let replies = try link.perform { (connection: RESPConnection) throws(RESPError) -> [RESPValue] in
      try link.runScripts(calls, on: connection)
    }
    for (holding, reply) in zip(order, replies) {
      if let message = reply.errorMessage {
        context.report(.commitFailed(shard: holding.shard, message: message))
      } else if reply.integer == 0 {
        context.report(.fencedOut(shard: holding.shard))
      }
    }
  }

  private func call(for items: [CommitItem], of holding: ShardHolding, batch: Int) -> ScriptCall {
    let keys = context.keys
    let shard = holding.shard
    let appended = items.filter { $0.eventClass != "a" }
    var arguments: [any RESPArgument] = [
      holding.lease, ScaleOutKeys.group, context.settings.eventsKept, "\(holding.lease)#\(batch)", appended.count,
    ]
    arguments.reserveCapacity(arguments.count + appended.count * 7 + items.count)
    // A search whose end is in the same batch opens nothing at the server and its end closes
    // nothing: both are appended, and the open-searches hash is not touched for them.
    let endedSearches = Set(appended.lazy.filter { $0.eventClass == "e" }.map(\.extra))
    var settledHere: Set<[UInt8]> = []
    for item in appended {
      var eventClass = item.eventClass
      if eventClass == "s", endedSearches.contains(Array(item.key.utf8)) {
        eventClass = "S"
        settledHere.insert(Array(item.key.utf8))
      } else if eventClass == "e", settledHere.contains(item.extra) {
        eventClass = "E"
      }
      arguments +=
        [eventClass, item.session ?? "", item.key, item.type, item.json, item.extra, item.settlingID]
        as [any RESPArgument]
    }
    for item in items { arguments += item.acknowledged as [any RESPArgument] }
    return ScriptCall(
      script: .commit,
      keys: [
        keys.lease(shard: shard), keys.keystrokes(shard: shard), keys.events(shard: shard),
        keys.openSearches(shard: shard), keys.lastBatch(shard: shard),
      ],
      arguments: arguments)
  }

  private func wait(_ signal: CancellationSignal, for limit: Duration) -> Bool {
    StopWait.wait(for: limit, clock: ContinuousClock(), stop: signal)
  }
}
