// How `events` reads a page of each shard's events and knows what it missed: every page comes in
// one `MULTI`/`EXEC` with the stream's own account of itself (`XINFO STREAM`: its length, and from
// Redis 7 the count of entries ever added), so the reader can tell, as a Kafka consumer told its
// offset is out of range can, that entries after its position were trimmed before it read them,
// and how many; or that the stream it was reading is gone.
import RESP

/// A reader's position in one shard's event stream.
struct ShardCursor: Equatable, Sendable {
  /// The id of the last entry read; `0-0` before any.
  var id = "0-0"
  /// How many entries had ever been added to the stream up to and including ``id`` (Redis 7's
  /// `entries-added` numbering); nil while unknown (before the first page, or before Redis 7).
  var ordinal: Int64?
}

/// What a stream said about itself in `XINFO STREAM`.
struct StreamInfo: Equatable, Sendable {
  var length: Int64
  /// Entries ever added (Redis 7 and later).
  var entriesAdded: Int64?
  /// The oldest entry's id; nil when the stream is empty.
  var firstID: String?
  /// The id of the newest entry ever added.
  var lastGeneratedID: String?

  /// The fields of `XINFO STREAM`'s reply (pairs of name and value); nil for anything else.
  init?(_ reply: RESPValue) {
    guard let flat = reply.array, flat.count % 2 == 0 else { return nil }
    var fields: [String: RESPValue] = [:]
    for index in stride(from: 0, to: flat.count, by: 2) {
      if let name = flat[index].string { fields[name] = flat[index + 1] }
    }
    guard let length = fields["length"]?.integer else { return nil }
    self.length = length
    entriesAdded = fields["entries-added"]?.integer
    lastGeneratedID = fields["last-generated-id"]?.string
    firstID = length == 0 ? nil : fields["first-entry"]?.array?.first?.string
  }

  init(length: Int64, entriesAdded: Int64?, firstID: String?, lastGeneratedID: String?) {
    self.length = length
    self.entriesAdded = entriesAdded
    self.firstID = firstID
    self.lastGeneratedID = lastGeneratedID
  }
}

/// What a reader missed in one shard.
package enum EventGap: Sendable, Equatable {
  /// Events of `shard` trimmed (beyond the workers' `--events-kept`) before this reader read
  /// them: `count` of them, nil when the server cannot say (Redis before 7.0).
  case trimmed(shard: Int, count: Int?)
  /// The event stream of `shard` is gone, or is another one, since this reader read from it:
  /// Redis was flushed or restarted without its data. What was committed after the last event
  /// read, before the loss, cannot be read; reading goes on from the stream as it is now.
  case historyLost(shard: Int)
}

enum EventPages {
  /// One page of a shard: its entries after the cursor (nil when the stream does not exist) and
  /// the stream's account of itself, read together.
  struct Page {
    let entries: [RESPValue]
    let info: StreamInfo?
  }

  /// Reads up to `count` entries after each shard's cursor (up to `ends[shard]`, else the newest)
  /// with each stream's `XINFO STREAM`, in one transaction: what the page holds and what the
  /// stream says are of one instant.
  static func read(
    _ shards: [Int], cursors: [Int: ShardCursor], ends: [Int: String], count: Int, keys: ScaleOutKeys,
    on connection: RESPConnection
  ) throws(RESPError) -> [Int: Page] {
    guard !shards.isEmpty else { return [:] }
    var commands = [RESPCommand("MULTI")]
    for shard in shards {
      let stream = keys.events(shard: shard)
      let cursor = cursors[shard]?.id ?? "0-0"
      commands.append(RESPCommand("XINFO", "STREAM", stream))
      commands.append(
        RESPCommand("XRANGE", stream, cursor == "0-0" ? "-" : "(" + cursor, ends[shard] ?? "+", "COUNT", count))
    }
    commands.append(RESPCommand("EXEC"))
    let replies = try connection.readyPipeline(commands)
    guard let results = replies.last?.array, results.count == 2 * shards.count else {
      throw .protocolViolation("the events' transaction was refused: \(replies.last?.errorMessage ?? "no reply")")
    }
    var pages: [Int: Page] = [:]
    for (index, shard) in shards.enumerated() {
      let info = StreamInfo(results[2 * index])
      if info == nil, let refusal = results[2 * index].errorMessage, !refusal.contains("no such key") {
        throw .server(refusal)
      }
      if let refusal = results[2 * index + 1].errorMessage { throw .server(refusal) }
      pages[shard] = Page(entries: results[2 * index + 1].array ?? [], info: info)
    }
    return pages
  }

  /// What a page says about the reader's position before it: the cursor to go on from (reset to
  /// the start when the stream was lost, and then the page, read from the old position, must be
  /// read again) and the gap, if the reader missed anything. A fresh cursor (nothing read yet)
  /// misses nothing: what was trimmed before a reader began is the retention.
  static func account(_ cursor: ShardCursor, info: StreamInfo?, shard: Int) -> (
    cursor: ShardCursor, gap: EventGap?, readAgain: Bool
  ) {
    let started = cursor.id != "0-0"
    let restart = ShardCursor(id: "0-0", ordinal: 0)
    guard let info else {
      // No stream: gone since this reader read from it, or not made yet (then every entry it
      // will hold comes after this reader began: none is retention).
      guard started else { return (ShardCursor(id: "0-0", ordinal: cursor.ordinal ?? 0), nil, false) }
      return (restart, .historyLost(shard: shard), false)
    }
    let added = info.entriesAdded
    if started {
      // Fewer entries ever added than this reader read, or ids older than its position: not the
      // stream it was reading.
      let fewer = added.map { added in cursor.ordinal.map { added < $0 } ?? false } ?? false
      let older = info.lastGeneratedID.map { before($0, cursor.id) } ?? false
      if fewer || older { return (restart, .historyLost(shard: shard), true) }
    }
    // Only a position older than the oldest entry can have missed any.
    if started, let first = info.firstID, !before(cursor.id, first) { return (cursor, nil, false) }
    let trimmedBefore = added.map { $0 - info.length }
    var next = cursor
    next.ordinal = trimmedBefore
    guard cursor.id != "0-0" || cursor.ordinal != nil else { return (next, nil, false) }
    guard let trimmedBefore, let position = cursor.ordinal else {
      // Before Redis 7 nothing counts the entries: a position older than the oldest entry says
      // only that some were trimmed.
      return (next, started && info.firstID != nil ? .trimmed(shard: shard, count: nil) : nil, false)
    }
    let missed = trimmedBefore - position
    return (next, missed > 0 ? .trimmed(shard: shard, count: Int(clamping: missed)) : nil, false)
  }

  /// The cursor after reading `count` entries, the last with id `lastID`.
  static func advanced(_ cursor: ShardCursor, by count: Int, to lastID: String) -> ShardCursor {
    ShardCursor(id: lastID, ordinal: cursor.ordinal.map { $0 + Int64(count) })
  }

  /// Whether stream id `a` comes before `b`.
  static func before(_ a: String, _ b: String) -> Bool {
    let (first, second) = (StoredEvent.order(of: a), StoredEvent.order(of: b))
    return first.0 < second.0 || (first.0 == second.0 && first.1 < second.1)
  }
}
