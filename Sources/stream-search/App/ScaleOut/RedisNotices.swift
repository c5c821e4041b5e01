// What a person sees when Redis goes away under a running command: one line when the first
// connection is lost, one when every lost connection works again; nothing per retry.
import RESP
import ScaleOut
import Synchronization

/// Turns the connections' notices into at most one warning per outage and one per recovery.
final class RedisNotices: Sendable {
  private let endpoint: RedisEndpoint
  private let log: Log
  /// Connections lost and not yet restored.
  private let down = Mutex(0)

  init(endpoint: RedisEndpoint, log: Log) {
    self.endpoint = endpoint
    self.log = log
  }

  func receive(_ notice: LinkNotice) {
    let line = down.withLock { down -> String? in
      switch notice {
      case .lost(let error):
        down += 1
        return down == 1 ? "lost the connection to \(endpoint): \(error); reconnecting with backoff" : nil
      case .restored:
        guard down > 0 else { return nil }
        down -= 1
        return down == 0 ? "reconnected to \(endpoint)" : nil
      }
    }
    if let line { log.warning(line) }
  }
}

extension ScaleOutError {
  /// The status a command ends with for this error: a conflict with the stored configuration is
  /// a usage error, anything else means Redis cannot be used.
  var exitStatus: ExitStatus {
    switch self {
    case .shardCountMismatch, .invalidPrefix, .foreignConfiguration: .usage
    case .unreachable: .unavailable
    }
  }
}
