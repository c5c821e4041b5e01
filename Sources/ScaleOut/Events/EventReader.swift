// `events`' engine: reads the shards' event streams in commit order (by stream id across shards),
// drops repeats by their idempotency key, says what it missed, and with `follow` waits for more.
// Runs on the caller's thread, blocking; every wait ends when the stop signal fires.
import LineIO
import RESP
import Streams

/// Reads the events the workers committed.
///
/// ```swift
/// let reader = EventReader(endpoint: endpoint, keys: keys, stop: stop)
/// try reader.run(follow: false, session: nil) { event in print(event.type); return true }
/// ```
///
/// - Element: `deliver` gets each event once (a repeat with the same key is dropped), in the
///   order of their stream ids: per session, the order the workers committed them. It returns
///   false to stop reading.
/// - Finish: without `follow`, after the events that were there when reading started.
/// - Failure: Redis unreachable at the start throws ``ScaleOutError/unreachable(_:_:)``; later
///   failures are reconnected with backoff (reported through `notice`), reading on from where it was.
/// - Gaps: events trimmed before they were read (the reader fell behind the workers'
///   `--events-kept`), and streams gone since they were read (Redis flushed, or restarted without
///   its data), are told to `missed` (``EventGap``), and reading goes on.
/// - Cancellation: returns when `stop` fires.
package final class EventReader: Sendable {
  /// Keys remembered to drop repeats; repeats come within seconds of the original (a takeover),
  /// so the oldest are forgotten beyond this many.
  package static let rememberedKeys = 1_000_000
  private static let page = 1_000
  /// How long a follower waiting for new events goes without looking at the streams themselves.
  private static let lookAgain = Duration.seconds(5)
  /// In a cluster, how long a follower with nothing new waits before asking again.
  private static let clusterPoll = Duration.milliseconds(50)

  private let endpoint: RedisEndpoint
  private let keys: ScaleOutKeys
  private let options: RESPConnection.Options
  private let stop: CancellationSignal?
  private let notice: @Sendable (LinkNotice) -> Void
  private let missed: @Sendable ([EventGap]) -> Void

  /// A reader of the deployment under `keys`; `missed` is told, for each page read, what this
  /// reader missed in the shards read (see ``EventGap``).
  package init(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, options: RESPConnection.Options = RESPConnection.Options(),
    stop: CancellationSignal?, notice: @escaping @Sendable (LinkNotice) -> Void = { _ in },
    missed: @escaping @Sendable ([EventGap]) -> Void = { _ in }
  ) {
    self.endpoint = endpoint
    self.keys = keys
    self.options = options
    self.stop = stop
    self.notice = notice
    self.missed = missed
  }

  /// Delivers the events (of `session` only, when given); see ``EventReader``.
  package func run(follow: Bool, session: String?, deliver: (StoredEvent) -> Bool) throws {
    var shardCount: Int?
    do {
      shardCount = try ShardCount.onConfiguration(keys: keys, endpoint: endpoint, options: options, stop: stop) {
        connection in try ShardCount.read(keys: keys, on: connection)
      }
    } catch is CancellationError {
      return
    }
    let link = RedisLink(endpoint: endpoint, options: options, stop: stop, notice: notice)
    defer { link.close() }
    var seen = RecentKeys(limit: Self.rememberedKeys)
    do throws(LinkFailure) {
      while shardCount == nil {
        guard follow else { return }
        // Nothing was ever published under this prefix: wait for the first command to use it.
        if StopWait.wait(for: .seconds(1), clock: ContinuousClock(), stop: stop) { return }
        shardCount = try link.perform { (nodes: LinkNodes) throws(RESPError) -> Int? in
          try? ShardCount.read(keys: keys, on: nodes.connection(for: keys.configuration))
        }
      }
      let count = shardCount ?? 1
      let shards = session.map { [ShardHash.shard(of: $0, shardCount: count)] } ?? Array(0..<count)
      var cursors = Dictionary(uniqueKeysWithValues: shards.map { ($0, ShardCursor()) })
      let ends = try lastIDs(of: shards, link: link)
      guard
        try readPages(
          shards, until: ends, cursors: &cursors, session: session, seen: &seen, link: link, deliver: deliver) != nil
      else { return }
      guard follow else { return }
      let clock = ContinuousClock()
      var lookedAt = clock.now
      var connection = link.connectionNumber
      while !(stop?.isSignalled ?? false) {
        guard
          let read = try readPages(
            shards, until: nil, cursors: &cursors, session: session, seen: &seen, link: link, deliver: deliver)
        else { return }
        lookedAt = clock.now
        guard read == 0 else { continue }
        // Nothing new: wait for it. The streams are looked at again when something comes, after
        // a reconnection (a restarted Redis may have lost them), and every few seconds (a flushed
        // one may have).
        repeat {
          if try waitForNew(shards, after: cursors, link: link) { break }
        } while link.connectionNumber == connection && lookedAt.duration(to: clock.now) < Self.lookAgain
          && !(stop?.isSignalled ?? false)
        connection = link.connectionNumber
      }
    } catch .stopped {
      return
    } catch .fatal(let error), .exhausted(let error) {
      throw ScaleOutError.unreachable(endpoint, error)
    }
  }

  private func lastIDs(of shards: [Int], link: RedisLink) throws(LinkFailure) -> [Int: String] {
    let keys = self.keys
    let replies = try link.perform { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
      try nodes.pipeline(shards.map { RESPCommand("XREVRANGE", keys.events(shard: $0), "+", "-", "COUNT", 1) })
    }
    var ends: [Int: String] = [:]
    for (shard, reply) in zip(shards, replies) {
      if let id = reply.array?.first?.array?.first?.string { ends[shard] = id }
    }
    return ends
  }

  /// Merges the shards' streams after their cursors (up to `ends`, else to the newest entry), a
  /// page per shard at a time, and says what the reader missed; how many entries were read, or
  /// nil when `deliver` asked to stop.
  private func readPages(
    _ shards: [Int], until ends: [Int: String]?, cursors: inout [Int: ShardCursor], session: String?,
    seen: inout RecentKeys, link: RedisLink, deliver: (StoredEvent) -> Bool
  ) throws(LinkFailure) -> Int? {
    var pages: [Int: ArraySlice<StoredEvent>] = [:]
    // Every shard is read at least once, even one empty when reading began: its account of itself
    // is where this reader's position in it starts.
    var exhausted = Set<Int>()
    var read = 0
    while true {
      let needing = shards.filter { !exhausted.contains($0) && (pages[$0]?.isEmpty ?? true) }
      if !needing.isEmpty {
        let keys = self.keys
        let positions = cursors
        let fetched = try link.perform { (nodes: LinkNodes) throws(RESPError) -> [Int: EventPages.Page] in
          guard nodes.isCluster else {
            return try EventPages.read(
              needing, cursors: positions, ends: ends ?? [:], count: Self.page, keys: keys,
              on: nodes.connection(for: ""))
          }
          // In a cluster each shard's stream is a slot of its own: a transaction per shard.
          var pages: [Int: EventPages.Page] = [:]
          for shard in needing {
            let page = try EventPages.read(
              [shard], cursors: positions, ends: ends ?? [:], count: Self.page, keys: keys,
              on: nodes.connection(for: keys.events(shard: shard)))
            pages[shard] = page[shard]
          }
          return pages
        }
        var gaps: [EventGap] = []
        for shard in needing {
          let page = fetched[shard] ?? EventPages.Page(entries: [], info: nil)
          let (cursor, gap, readAgain) = EventPages.account(
            cursors[shard] ?? ShardCursor(), info: page.info, shard: shard)
          cursors[shard] = cursor
          if let gap { gaps.append(gap) }
          // Read from a stream that is not the one the position was in: read again from its start.
          if readAgain { continue }
          if page.entries.count < Self.page { exhausted.insert(shard) }
          if let last = page.entries.last?.array?.first?.string {
            cursors[shard] = EventPages.advanced(cursor, by: page.entries.count, to: last)
          }
          read += page.entries.count
          pages[shard] = ArraySlice(Self.events(in: page.entries, shard: shard))
        }
        if !gaps.isEmpty { missed(gaps) }
      }
      // The smallest head among the shards: commit order.
      let heads = shards.compactMap { shard in pages[shard]?.first.map { (shard, $0) } }
      guard let next = heads.min(by: { $0.1.order < $1.1.order }) else {
        if shards.allSatisfy(exhausted.contains) { return read }
        continue
      }
      pages[next.0]?.removeFirst()
      if !offer(next.1, session: session, seen: &seen, deliver: deliver) { return nil }
    }
  }

  /// Waits (at most a second) for an entry after the cursors; true when one came.
  private func waitForNew(_ shards: [Int], after cursors: [Int: ShardCursor], link: RedisLink) throws(LinkFailure)
    -> Bool
  {
    if try link.isCluster() {
      // One XREAD cannot wait on streams of several slots: each stream is asked (one round trip
      // per master), and with nothing new the reader looks again a moment later.
      let keys = self.keys
      let replies = try link.perform { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
        try nodes.pipeline(
          shards.map { RESPCommand("XREAD", "COUNT", 1, "STREAMS", keys.events(shard: $0), cursors[$0]?.id ?? "0-0") })
      }
      if replies.contains(where: { !$0.isNull }) { return true }
      _ = StopWait.wait(for: Self.clusterPoll, clock: ContinuousClock(), stop: stop)
      return false
    }
    var arguments: [any RESPArgument] = ["COUNT", 1, "BLOCK", 1_000, "STREAMS"]
    arguments += shards.map { keys.events(shard: $0) } as [any RESPArgument]
    arguments += shards.map { cursors[$0]?.id ?? "0-0" } as [any RESPArgument]
    let command = RESPCommand("XREAD", arguments: arguments)
    let timeout = options.replyTimeout + .seconds(1)
    let reply = try link.perform { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
      try nodes.connection(for: "").readyCall(command, timeout: timeout)
    }
    return !reply.isNull
  }

  private func offer(_ event: StoredEvent, session: String?, seen: inout RecentKeys, deliver: (StoredEvent) -> Bool)
    -> Bool
  {
    if let session, event.session != session { return true }
    guard seen.insert("\(event.shard)/\(event.key)") else { return true }
    return deliver(event)
  }

  private static func events(in entries: [RESPValue], shard: Int) -> [StoredEvent] {
    entries.compactMap { entry in
      guard let parts = entry.array, parts.count == 2, let id = parts[0].string else { return nil }
      var fields: [String: [UInt8]] = [:]
      let flat = parts[1].array ?? []
      var index = 0
      while index + 1 < flat.count {
        if case .bulkString(let name) = flat[index], case .bulkString(let value) = flat[index + 1] {
          fields[String(decoding: name, as: UTF8.self)] = value
        }
        index += 2
      }
      return StoredEvent.parse(RESPValueFields(id: id, fields: fields), shard: shard)
    }
  }
}

/// A set of the most recent keys, the oldest forgotten beyond `limit`.
struct RecentKeys {
  let limit: Int
  private var members: Set<String> = []
  private var order: [String] = []
  private var head = 0

  init(limit: Int) { self.limit = limit }

  /// Adds `key`; false when it was already there.
  mutating func insert(_ key: String) -> Bool {
    guard members.insert(key).inserted else { return false }
    order.append(key)
    if members.count > limit {
      members.remove(order[head])
      head += 1
      if head > limit {
        order.removeSubrange(0..<head)
        head = 0
      }
    }
    return true
  }
}
