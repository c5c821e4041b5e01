// `events`' engine: reads the shards' event streams in commit order (by stream id across shards),
// drops repeats by their idempotency key, and with `follow` waits for more. Runs on the caller's
// thread, blocking; every wait ends when the stop signal fires.
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
/// - Cancellation: returns when `stop` fires.
public final class EventReader: Sendable {
  /// Keys remembered to drop repeats; repeats come within seconds of the original (a takeover),
  /// so the oldest are forgotten beyond this many.
  public static let rememberedKeys = 1_000_000
  private static let page = 1_000

  private let endpoint: RedisEndpoint
  private let keys: ScaleOutKeys
  private let options: RESPConnection.Options
  private let stop: CancellationSignal?
  private let notice: @Sendable (LinkNotice) -> Void

  /// A reader of the deployment under `keys`.
  public init(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, options: RESPConnection.Options = RESPConnection.Options(),
    stop: CancellationSignal?, notice: @escaping @Sendable (LinkNotice) -> Void = { _ in }
  ) {
    self.endpoint = endpoint
    self.keys = keys
    self.options = options
    self.stop = stop
    self.notice = notice
  }

  /// Delivers the events (of `session` only, when given); see ``EventReader``.
  public func run(follow: Bool, session: String?, deliver: (StoredEvent) -> Bool) throws {
    let first: RESPConnection
    do {
      first = try RESPConnection(endpoint: endpoint, options: options, stoppingOn: stop)
    } catch .stopped {
      return
    } catch {
      throw ScaleOutError.unreachable(endpoint, error)
    }
    var shardCount: Int?
    do {
      shardCount = try ShardCount.read(keys: keys, on: first)
    } catch let error as RESPError {
      throw ScaleOutError.unreachable(endpoint, error)
    }
    first.close()
    let link = RedisLink(endpoint: endpoint, options: options, stop: stop, notice: notice)
    defer { link.close() }
    var seen = RecentKeys(limit: Self.rememberedKeys)
    do throws(LinkFailure) {
      while shardCount == nil {
        guard follow else { return }
        // Nothing was ever published under this prefix: wait for the first command to use it.
        if StopWait.wait(for: .seconds(1), clock: ContinuousClock(), stop: stop) { return }
        shardCount = try link.perform { (connection: RESPConnection) throws(RESPError) -> Int? in
          try? ShardCount.read(keys: keys, on: connection)
        }
      }
      let count = shardCount ?? 1
      let shards = session.map { [ShardHash.shard(of: $0, shardCount: count)] } ?? Array(0..<count)
      var cursors = Dictionary(uniqueKeysWithValues: shards.map { ($0, "0-0") })
      let ends = try lastIDs(of: shards, link: link)
      guard
        try readHistory(
          shards: shards, until: ends, cursors: &cursors, session: session, seen: &seen, link: link, deliver: deliver)
      else { return }
      guard follow else { return }
      while !(stop?.isSignalled ?? false) {
        guard
          try readNew(shards: shards, cursors: &cursors, session: session, seen: &seen, link: link, deliver: deliver)
        else { return }
      }
    } catch .stopped {
      return
    } catch .fatal(let error), .exhausted(let error) {
      throw ScaleOutError.unreachable(endpoint, error)
    }
  }

  private func lastIDs(of shards: [Int], link: RedisLink) throws(LinkFailure) -> [Int: String] {
    let keys = self.keys
    let replies = try link.perform { (connection: RESPConnection) throws(RESPError) -> [RESPValue] in
      try connection.readyPipeline(
        shards.map { RESPCommand("XREVRANGE", keys.events(shard: $0), "+", "-", "COUNT", 1) })
    }
    var ends: [Int: String] = [:]
    for (shard, reply) in zip(shards, replies) {
      if let id = reply.array?.first?.array?.first?.string { ends[shard] = id }
    }
    return ends
  }

  /// Merges the shards' streams up to `ends`, a page per shard at a time; false when `deliver`
  /// asked to stop.
  private func readHistory(
    shards: [Int], until ends: [Int: String], cursors: inout [Int: String], session: String?,
    seen: inout RecentKeys, link: RedisLink, deliver: (StoredEvent) -> Bool
  ) throws(LinkFailure) -> Bool {
    var pages: [Int: [StoredEvent]] = [:]
    var exhausted = Set(shards.filter { ends[$0] == nil })
    while true {
      let needing = shards.filter { !exhausted.contains($0) && (pages[$0]?.isEmpty ?? true) }
      if !needing.isEmpty {
        let keys = self.keys
        let starts = needing.map { cursors[$0] == "0-0" ? "-" : "(" + (cursors[$0] ?? "0-0") }
        let replies = try link.perform { (connection: RESPConnection) throws(RESPError) -> [RESPValue] in
          try connection.readyPipeline(
            zip(needing, starts).map { shard, start in
              RESPCommand("XRANGE", keys.events(shard: shard), start, ends[shard] ?? "+", "COUNT", Self.page)
            })
        }
        for (shard, reply) in zip(needing, replies) {
          let entries = Self.events(in: reply, shard: shard)
          if entries.count < Self.page { exhausted.insert(shard) }
          if let last = entries.last { cursors[shard] = last.id }
          pages[shard] = entries
        }
      }
      // The smallest head among the shards: commit order.
      let heads = shards.compactMap { shard in pages[shard]?.first.map { (shard, $0) } }
      guard let next = heads.min(by: { $0.1.order < $1.1.order }) else {
        for shard in shards where cursors[shard] == "0-0" { cursors[shard] = ends[shard] ?? "0-0" }
        return true
      }
      pages[next.0]?.removeFirst()
      if !offer(next.1, session: session, seen: &seen, deliver: deliver) { return false }
    }
  }

  /// Waits (at most a second) for events after the cursors and delivers them; false when
  /// `deliver` asked to stop.
  private func readNew(
    shards: [Int], cursors: inout [Int: String], session: String?, seen: inout RecentKeys, link: RedisLink,
    deliver: (StoredEvent) -> Bool
  ) throws(LinkFailure) -> Bool {
    var arguments: [any RESPArgument] = ["COUNT", Self.page, "BLOCK", 1_000, "STREAMS"]
    arguments += shards.map { keys.events(shard: $0) } as [any RESPArgument]
    arguments += shards.map { cursors[$0] ?? "0-0" } as [any RESPArgument]
    let command = RESPCommand("XREAD", arguments: arguments)
    let timeout = options.replyTimeout + .seconds(1)
    let reply = try link.perform { (connection: RESPConnection) throws(RESPError) -> RESPValue in
      try connection.readyCall(command, timeout: timeout)
    }
    var fresh: [StoredEvent] = []
    for stream in reply.array ?? [] {
      guard let parts = stream.array, parts.count == 2, let name = parts[0].string,
        let shard = shards.first(where: { keys.events(shard: $0) == name })
      else { continue }
      let entries = Self.events(in: parts[1], shard: shard)
      if let last = entries.last { cursors[shard] = last.id }
      fresh += entries
    }
    for event in fresh.sorted(by: { $0.order < $1.order }) {
      if !offer(event, session: session, seen: &seen, deliver: deliver) { return false }
    }
    return true
  }

  private func offer(_ event: StoredEvent, session: String?, seen: inout RecentKeys, deliver: (StoredEvent) -> Bool)
    -> Bool
  {
    if let session, event.session != session { return true }
    guard seen.insert("\(event.shard)/\(event.key)") else { return true }
    return deliver(event)
  }

  private static func events(in reply: RESPValue, shard: Int) -> [StoredEvent] {
    (reply.array ?? []).compactMap { entry in
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
