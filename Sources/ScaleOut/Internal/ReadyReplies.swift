// A server that is restarting answers `-LOADING` until its data is back (and `-BUSY` while a slow
// script runs): those replies mean "not yet", not "no". They are thrown here as a transient
// failure, so that the link waits and sends the same commands again instead of taking them for
// answers. So is a cluster node's `MOVED` or `ASK` to a command sent on a slot's connection: the
// slot is elsewhere now, and the link reads the map again before it tries again.
import RESP

extension RESPConnection {
  /// ``RESPConnection/pipeline(_:timeout:)``, throwing ``RESPError/notReady(_:)`` when a reply
  /// says the server cannot answer yet.
  func readyPipeline(_ commands: [RESPCommand], timeout: Duration? = nil) throws(RESPError) -> [RESPValue] {
    let replies = try pipeline(commands, timeout: timeout)
    if let waiting = replies.first(where: \.saysNotHere)?.errorMessage { throw .notReady(waiting) }
    return replies
  }

  /// ``RESPConnection/pipeline(_:timeout:)`` of a request built beforehand, throwing
  /// ``RESPError/notReady(_:)`` when a reply says the server cannot answer yet.
  func readyPipeline(_ request: RESPRequest, timeout: Duration? = nil) throws(RESPError) -> [RESPValue] {
    let replies = try pipeline(request, timeout: timeout)
    if let waiting = replies.first(where: \.saysNotHere)?.errorMessage { throw .notReady(waiting) }
    return replies
  }

  /// ``RESPConnection/call(_:timeout:)``, throwing ``RESPError/notReady(_:)`` when the reply
  /// says the server cannot answer yet.
  func readyCall(_ command: RESPCommand, timeout: Duration? = nil) throws(RESPError) -> RESPValue {
    let reply = try call(command, timeout: timeout)
    if reply.saysNotHere, let waiting = reply.errorMessage { throw .notReady(waiting) }
    return reply
  }
}

extension RESPValue {
  /// Whether this reply says "not yet" (``RESPValue/isNotReadyError``) or "not here" (a
  /// cluster's redirection).
  var saysNotHere: Bool {
    guard let message = errorMessage else { return false }
    return isNotReadyError || message.hasPrefix("MOVED ") || message.hasPrefix("ASK ")
  }
}

/// What Redis's error replies mean beyond "no".
enum RedisRefusal {
  /// Whether `message` says Redis is out of memory: `-OOM …`, given to a write when `maxmemory`
  /// is reached under the `noeviction` policy. A temporary failure: the write can succeed once
  /// Redis has room.
  static func isOutOfMemory(_ message: String) -> Bool { message.hasPrefix("OOM ") }
}
