// Redis's optimistic transaction, stated once: `WATCH` the keys a decision depends on and read
// them in the same round trip; decide here; then send the writes between `MULTI` and `EXEC`. If
// another client changed a watched key in between, `EXEC` runs nothing and answers null: the
// caller reads and decides again. Every fenced step of the workers (their reads, their commits)
// and the shared store's budget reservations follow it.
import RESP

/// What `EXEC` made of a transaction.
enum TransactionOutcome: Equatable {
  /// Every queued command ran: their replies in order (an error among them is that command's).
  case executed([RESPValue])
  /// A watched key changed after it was read: nothing ran. Read and decide again.
  case aborted
  /// The server refused the transaction as a whole (a command refused when queued, out of memory
  /// say): that command's refusal, else `EXEC`'s own. Nothing ran.
  case refused(String)
}

/// What a decision taken on a watched read asks for.
enum TransactionStep<Value> {
  /// Nothing to write: the watch ends, and this is the answer.
  case finished(Value)
  /// Write these commands (without `MULTI` and `EXEC`) as one transaction; the answer is made
  /// from its outcome.
  case write(RESPRequest, then: (TransactionOutcome) -> Value)
}

enum WatchedTransaction {
  /// Watches `keys`, reads with `reads`, decides with `decide`, and writes what it asks for:
  /// three round trips at most, two when there is nothing to write. Nil when a watched key
  /// changed in between (nothing was written: the caller reads and decides again).
  ///
  /// In Redis Cluster every key, watched or written, must be of one hash slot.
  static func run<Value>(
    watching keys: [String], reading reads: [RESPCommand], on connection: RESPConnection,
    decide: ([RESPValue]) throws(RESPError) -> TransactionStep<Value>
  ) throws(RESPError) -> Value? {
    let seen = try watch(keys, reading: reads, on: connection)
    switch try decide(seen) {
    case .finished(let value):
      try unwatch(on: connection)
      return value
    case .write(let writes, let then):
      let outcome = try execute(writes, on: connection)
      if outcome == .aborted { return nil }
      return then(outcome)
    }
  }

  /// Watches `keys` and sends `reads` in the same round trip: the replies to `reads`, in order.
  /// A reply that says the server is not ready throws ``RESPError/notReady(_:)``.
  static func watch(_ keys: [String], reading reads: [RESPCommand], on connection: RESPConnection)
    throws(RESPError) -> [RESPValue]
  {
    let replies = try connection.readyPipeline([RESPCommand("WATCH", arguments: keys)] + reads)
    guard replies.count == reads.count + 1 else { throw .protocolViolation("a reply missing after WATCH") }
    if let refusal = replies[0].errorMessage { throw .server("WATCH: \(refusal)") }
    return Array(replies.dropFirst())
  }

  /// Ends the watch when nothing is to be written.
  static func unwatch(on connection: RESPConnection) throws(RESPError) {
    _ = try connection.readyCall(RESPCommand("UNWATCH"))
  }

  /// Sends `writes` between `MULTI` and `EXEC` in one round trip, on the connection that
  /// watched.
  static func execute(_ writes: RESPRequest, on connection: RESPConnection) throws(RESPError) -> TransactionOutcome {
    var request = RESPRequest()
    request.reserveCapacity(writes.encoded.count + 32)
    request.append("MULTI")
    request.append(contentsOf: writes)
    request.append("EXEC")
    let replies = try connection.readyPipeline(request)
    guard let executed = replies.last, replies.count == writes.count + 2 else {
      throw .protocolViolation("no reply to EXEC")
    }
    switch executed {
    case .null:
      return .aborted
    case .array(let results) where results.count == writes.count:
      return .executed(results)
    case .array(let results):
      throw .protocolViolation("EXEC answered \(results.count) replies to \(writes.count) commands")
    default:
      // EXECABORT says only that a command was refused when queued: that command's refusal is
      // the reason.
      let queued = replies.dropFirst().dropLast().lazy.compactMap(\.errorMessage).first
      return .refused(queued ?? executed.errorMessage ?? "the transaction was refused")
    }
  }
}
