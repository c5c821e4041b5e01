// One event as a worker committed it to a shard's event stream: the fields a reader in any
// language finds there, and the JSON line `events` prints.
import Pipeline

/// An entry of a `{prefix:shard}:events` stream.
package struct StoredEvent: Sendable, Equatable {
  /// The shard whose stream holds it.
  package let shard: Int
  /// Its stream id (`<ms>-<seq>`, the server's clock at the commit).
  package let id: String
  /// Its idempotency key: the same for a repeat of the same event after a takeover.
  package let key: String
  /// The event's type (`search`, `results`…).
  package let type: String
  /// Its session; nil for the unnamed session.
  package let session: String?
  /// The event's JSON object as the tool writes it, with `seq` 0.
  package let json: [UInt8]

  /// Creates a stored event.
  package init(shard: Int, id: String, key: String, type: String, session: String?, json: [UInt8]) {
    self.shard = shard
    self.id = id
    self.key = key
    self.type = type
    self.session = session
    self.json = json
  }

  /// The JSON line to print: `seq` set to `seq` (by the encoder that wrote it), then a newline.
  package func line(seq: Int) -> [UInt8] {
    var output = JSONLinesEncoder.restamping(json, seq: seq) ?? json
    output.append(0x0A)
    return output
  }

  /// (milliseconds, sequence) of the id, for ordering entries of several streams.
  var order: (UInt64, UInt64) { Self.order(of: id) }

  static func order(of id: String) -> (UInt64, UInt64) {
    let parts = id.split(separator: "-", maxSplits: 1)
    return (UInt64(parts.first ?? "") ?? 0, parts.count > 1 ? UInt64(parts[1]) ?? 0 : 0)
  }

  /// A stream entry `[id, [field, value, …]]` of shard `shard`; nil when it is not an event.
  static func parse(_ value: RESPValueFields, shard: Int) -> StoredEvent? {
    guard let key = value.fields["key"], let type = value.fields["type"], let json = value.fields["event"] else {
      return nil
    }
    let session = value.fields["session"].map { String(decoding: $0, as: UTF8.self) }
    return StoredEvent(
      shard: shard, id: value.id, key: String(decoding: key, as: UTF8.self),
      type: String(decoding: type, as: UTF8.self),
      session: session, json: json)
  }
}

/// A stream entry's id and fields.
struct RESPValueFields {
  let id: String
  let fields: [String: [UInt8]]
}
