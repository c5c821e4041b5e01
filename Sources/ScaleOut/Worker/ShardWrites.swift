// What one shard's batch writes, decided from the open searches the server holds. The rules of
// the exactly-once commit live here, once: a search and its end in one batch touch nothing else;
// a search whose end is not in the batch is recorded as open with the `cancelled` events that end
// it should its worker die; a search or clear of a session whose earlier search is still open (its
// worker died before its end) first ends that one; a search already open (committed by a worker
// that died, and processed again) is not appended twice.
import Pipeline
import RESP

struct ShardWrites {
  private let keys: ScaleOutKeys
  private let shard: Int
  private let eventsKept: Int
  private let events: String
  /// The server's time in milliseconds: the instant of a `cancelled` event ending an open search.
  private let now: Int64
  /// Session → its open search as stored: search key, end key, superseded and cleared events,
  /// separated by newlines.
  private var open: [String: [UInt8]]
  /// The commands, in order, to run inside the transaction.
  private(set) var request: RESPRequest

  /// Writes appended to `request`.
  init(
    keys: ScaleOutKeys, shard: Int, eventsKept: Int, now: Int64, open: [String: [UInt8]],
    appendingTo request: RESPRequest
  ) {
    self.request = request
    self.keys = keys
    self.shard = shard
    self.eventsKept = eventsKept
    events = keys.events(shard: shard)
    self.now = now
    self.open = open
  }

  mutating func add(_ batch: ShardBatch) {
    let appended = batch.items.filter(\.eventClass.appendsAnEvent)
    // An end's `extra` is its search's key.
    let endedHere = Set(appended.lazy.filter { $0.eventClass == .end }.map(\.extra))
    var settledHere: Set<[UInt8]> = []
    let openKey = keys.openSearches(shard: shard)
    for item in appended {
      let session = item.session ?? ""
      switch item.eventClass {
      case .search:
        let key = Array(item.key.utf8)
        let current = open[session]
        if let current, Self.field(0, of: current).elementsEqual(key) { continue }
        if let current { close(session: session, current, eventField: 2) }
        append(item)
        if endedHere.contains(key) {
          settledHere.insert(key)
        } else {
          let value =
            key + [0x0A] + item.extra + [0x0A] + Self.cancelled(item, reason: .superseded) + [0x0A]
            + Self.cancelled(item, reason: .cleared)
          request.append("HSET", openKey, session, value)
          open[session] = value
        }
      case .end:
        append(item)
        if settledHere.contains(item.extra) { continue }
        if let current = open[session], Self.field(0, of: current).elementsEqual(item.extra) {
          request.append("HDEL", openKey, session)
          open[session] = nil
        }
      case .cleared:
        if let current = open[session] { close(session: session, current, eventField: 3) }
        append(item)
      case .inputError, .other, .acknowledgement:
        append(item)
      }
    }
    let acknowledged = batch.items.flatMap(\.acknowledged)
    if !acknowledged.isEmpty {
      request.append(
        "XACK", arguments: [keys.keystrokes(shard: shard), ScaleOutKeys.group] + acknowledged as [any RESPArgument])
    }
    request.append("SET", keys.lastBatch(shard: shard), batch.id)
  }

  private mutating func append(_ item: CommitItem) {
    append(key: Array(item.key.utf8), type: item.type, session: item.session ?? "", json: item.json)
  }

  private mutating func append(key: [UInt8], type: String, session: String, json: [UInt8]) {
    if session.isEmpty {
      request.append("XADD", events, "MAXLEN", "~", eventsKept, "*", "key", key, "type", type, "event", json)
    } else {
      request.append(
        "XADD", events, "MAXLEN", "~", eventsKept, "*", "key", key, "type", type, "session", session, "event", json)
    }
  }

  /// Ends the open search `current` of `session` with its stored `cancelled` event (field
  /// `eventField`: 2 superseded, 3 cleared), stamped with the server's time.
  private mutating func close(session: String, _ current: [UInt8], eventField: Int) {
    append(
      key: Array(Self.field(1, of: current)), type: "cancelled", session: session,
      json: Self.stamped(Array(Self.field(eventField, of: current)), at: now))
    request.append("HDEL", keys.openSearches(shard: shard), session)
    open[session] = nil
  }

  /// The `index`th newline-separated field of `value` (empty when it has fewer).
  private static func field(_ index: Int, of value: [UInt8]) -> ArraySlice<UInt8> {
    var parts = value.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false).makeIterator()
    for _ in 0..<index { _ = parts.next() }
    return parts.next() ?? []
  }

  /// `json`, an event the encoder wrote ahead of time, dated `now` by the encoder (as it was
  /// when it is not an event's JSON).
  static func stamped(_ json: [UInt8], at now: Int64) -> [UInt8] {
    JSONLinesEncoder.restamping(json, atMilliseconds: now) ?? json
  }

  /// The `cancelled` event that ends the search `item` opened, `at_ms` 0 (stamped when used).
  private static func cancelled(_ item: CommitItem, reason: CancelReason) -> [UInt8] {
    WorkerSink.json(
      SearchEvent(
        seq: 0, atMilliseconds: 0, session: item.session, kind: .cancelled(term: item.term ?? "", reason: reason)))
  }
}
