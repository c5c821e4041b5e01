// The lease keeper thread: every round (a tenth of the lease) it marks the worker live, renews
// the leases it holds, gives back shards beyond its share and takes free ones up to it, and now
// and then trims acknowledged keystrokes. It runs apart from the pipeline and the reader, so slow
// processing never lets a lease run out.
import Foundation
import LineIO
import RESP
import Streams

final class LeaseKeeper: Sendable {
  private let context: WorkerContext
  /// Fired by the worker to end the rounds (before the release on shutdown).
  let stop: CancellationSignal
  private let finished: CancellationSignal

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
    thread.name = "LeaseKeeper"
    thread.start()
  }

  /// Ends the rounds, then gives back every shard and leaves the live set, within `limit`.
  func releaseAll(within limit: Duration) {
    stop.signal()
    _ = StopWait.wait(for: .seconds(60), clock: ContinuousClock(), stop: finished)
    let held = context.board.takeAll()
    let link = RedisLink(
      endpoint: context.endpoint,
      options: RESPConnection.Options(connectTimeout: limit, replyTimeout: limit), stop: nil, notice: { _ in })
    defer { link.close() }
    let keys = context.keys
    var calls = held.map { holding in
      ScriptCall(script: .release, keys: [keys.lease(shard: holding.shard)], arguments: [holding.lease])
    }
    calls.append(
      ScriptCall(
        script: .membership, keys: [keys.workers], arguments: [context.settings.name, 0, "leave"]))
    let done = try? link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
      try link.runScripts(calls, on: nodes)
    }
    if done != nil {
      for holding in held { context.report(.released(shard: holding.shard)) }
    }
  }

  private func run() {
    let link = RedisLink(
      endpoint: context.endpoint, options: context.settings.connection, stop: stop, notice: context.notice)
    defer { link.close() }
    let clock = ContinuousClock()
    var lastRenewal: [ShardHolding: ContinuousClock.Instant] = [:]
    var round = 0
    while !stop.isSignalled {
      let started = clock.now
      do throws(LinkFailure) {
        try playRound(link: link, round: round, clock: clock, lastRenewal: &lastRenewal)
      } catch .stopped {
        return
      } catch .fatal(let error) {
        // Nothing a new connection fixes (a reply of a type no command gives, credentials
        // refused): the worker ends, saying why.
        context.fail(error)
        return
      } catch {
        // Redis is away this round: leases past their time are ours no more, whatever we
        // believe; the fence refuses their commits anyway.
      }
      for (holding, renewed) in lastRenewal where renewed.duration(to: clock.now) >= context.settings.lease {
        lastRenewal[holding] = nil
        context.forget(holding)
        context.report(.lost(shard: holding.shard))
      }
      round += 1
      let spent = started.duration(to: clock.now)
      if StopWait.wait(for: max(.zero, context.settings.round - spent), clock: clock, stop: stop) { return }
    }
  }

  private func playRound(
    link: RedisLink, round: Int, clock: ContinuousClock, lastRenewal: inout [ShardHolding: ContinuousClock.Instant]
  ) throws(LinkFailure) {
    let keys = context.keys
    let settings = context.settings
    let leaseMilliseconds = settings.lease.wholeMillisecondsRoundedUp
    let held = context.board.held.values.sorted { $0.shard < $1.shard }
    // One round trip: heartbeat and renewals.
    var calls = [
      ScriptCall(script: .membership, keys: [keys.workers], arguments: [settings.name, leaseMilliseconds, "join"])
    ]
    calls += held.map { holding in
      ScriptCall(
        script: .renew, keys: [keys.lease(shard: holding.shard)], arguments: [holding.lease, leaseMilliseconds])
    }
    let renewedAt = clock.now
    // One attempt per round: while Redis is away, rounds go on, and leases not renewed in time
    // are given up below.
    let replies = try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
      try link.runScripts(calls, on: nodes)
    }
    try confirmShardCount(link: link)
    guard !context.hasFailed else { return }
    let live = (replies.first?.array ?? []).compactMap(\.string)
    var owned = Set<Int>()
    for (holding, reply) in zip(held, replies.dropFirst()) {
      if reply.integer == 1 {
        lastRenewal[holding] = renewedAt
        owned.insert(holding.shard)
      } else if reply.errorMessage == nil {
        lastRenewal[holding] = nil
        context.forget(holding)
        context.report(.lost(shard: holding.shard))
      }
    }
    let share = ShardBalance.share(of: settings.name, live: live, shardCount: context.shardCount)
    let excess = ShardBalance.excess(owned: owned, target: share.target)
    if !excess.isEmpty {
      try release(
        excess.compactMap { shard in held.first { $0.shard == shard } }, link: link, lastRenewal: &lastRenewal)
      owned.subtract(excess)
    }
    if owned.count < share.target {
      try acquire(
        share: share, owned: owned, link: link, renewedAt: clock.now, lastRenewal: &lastRenewal)
    }
    if round % settings.roundsPerTrim == settings.roundsPerTrim - 1 {
      try trim(link: link)
    }
  }

  /// Keeps the shard count stored: after Redis lost its data, the next command on the prefix must
  /// find the count the workers use. A count another command stored first ends the worker.
  private func confirmShardCount(link: RedisLink) throws(LinkFailure) {
    let keys = context.keys
    let count = context.shardCount
    let found = try link.perform(attempts: 1) {
      (nodes: LinkNodes) throws(RESPError) -> Result<ShardCount.Confirmation, ScaleOutError> in
      try ShardCount.confirmation(count, keys: keys, on: nodes.connection(for: keys.configuration))
    }
    switch found {
    case .success(.kept): break
    case .success(.restored): context.report(.restoredConfiguration(shards: count))
    case .failure(.outOfMemory):
      // It cannot be stored back now; the next round tries again.
      break
    case .failure(let error): context.fail(error)
    }
  }

  private func release(
    _ holdings: [ShardHolding], link: RedisLink, lastRenewal: inout [ShardHolding: ContinuousClock.Instant]
  ) throws(LinkFailure) {
    // Forgotten first: nothing more is read or committed for them while the release is on its way.
    for holding in holdings {
      lastRenewal[holding] = nil
      context.forget(holding)
    }
    let keys = context.keys
    let calls = holdings.map { holding in
      ScriptCall(script: .release, keys: [keys.lease(shard: holding.shard)], arguments: [holding.lease])
    }
    _ = try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
      try link.runScripts(calls, on: nodes)
    }
    for holding in holdings { context.report(.released(shard: holding.shard)) }
  }

  private func acquire(
    share: (target: Int, index: Int, workers: Int), owned: Set<Int>, link: RedisLink,
    renewedAt: ContinuousClock.Instant, lastRenewal: inout [ShardHolding: ContinuousClock.Instant]
  ) throws(LinkFailure) {
    let keys = context.keys
    let settings = context.settings
    let shards = Array(0..<context.shardCount)
    let values = try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
      // In a cluster every lease is a slot of its own: one GET each, sent to their masters.
      guard nodes.isCluster else {
        let reply = try nodes.pipeline([RESPCommand("MGET", arguments: shards.map { keys.lease(shard: $0) })])
        return reply.first?.array ?? []
      }
      return try nodes.pipeline(shards.map { RESPCommand("GET", keys.lease(shard: $0)) })
    }
    let free = shards.filter { $0 < values.count && values[$0].isNull && !owned.contains($0) }
    let candidates = ShardBalance.candidates(
      free: free, ownedCount: owned.count, target: share.target, index: share.index, workers: share.workers)
    guard !candidates.isEmpty else { return }
    let calls = candidates.map { shard in
      ScriptCall(
        script: .acquire, keys: [keys.lease(shard: shard), keys.fence(shard: shard), keys.keystrokes(shard: shard)],
        arguments: [settings.lease.wholeMillisecondsRoundedUp, settings.name, ScaleOutKeys.group])
    }
    let replies = try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
      try link.runScripts(calls, on: nodes)
    }
    var readerToUnblock: Int64?
    for (shard, reply) in zip(candidates, replies) {
      guard let lease = reply.string, reply.errorMessage == nil else { continue }
      let holding = ShardHolding(shard: shard, lease: lease)
      lastRenewal[holding] = renewedAt
      readerToUnblock = context.board.acquired(holding) ?? readerToUnblock
      context.report(.acquired(shard: shard, lease: lease))
    }
    if let readerToUnblock {
      // The reader may be blocked waiting for keystrokes of the shards it had; it is to claim
      // the new shards' pending keystrokes now.
      _ = try? link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
        try nodes.connection(for: "").readyCall(RESPCommand("CLIENT", "UNBLOCK", readerToUnblock))
      }
    }
  }

  private func trim(link: RedisLink) throws(LinkFailure) {
    let keys = context.keys
    let held = context.board.held.values.sorted { $0.shard < $1.shard }
    let calls = held.map { holding in
      ScriptCall(
        script: .trim, keys: [keys.lease(shard: holding.shard), keys.keystrokes(shard: holding.shard)],
        arguments: [holding.lease])
    }
    let replies = try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
      try link.runScripts(calls, on: nodes)
    }
    for (holding, reply) in zip(held, replies) {
      if let count = reply.integer, count > 0 { context.report(.trimmed(shard: holding.shard, count: Int(count))) }
    }
  }
}

extension Duration {
  /// The duration in whole milliseconds, rounded up (a lease never shorter than asked).
  var wholeMillisecondsRoundedUp: Int64 {
    let parts = components
    return parts.seconds * 1000 + (parts.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
  }
}
