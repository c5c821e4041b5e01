// What a person sees when Redis goes away under a running command: one line when the first
// connection is lost, one when every lost connection works again; nothing per retry.
import RESP
import ScaleOut
import Synchronization

/// Turns the connections' notices into at most one warning per outage and one per recovery.
final class RedisNotices: Sendable {
  private struct State {
    /// Connections lost and not yet restored.
    var down = 0
    /// Whether a write waits for Redis to have room.
    var full = false
  }

  /// The server whose connections these are.
  let endpoint: RedisEndpoint
  private let log: Log
  private let state = Mutex(State())

  init(endpoint: RedisEndpoint, log: Log) {
    self.endpoint = endpoint
    self.log = log
  }

  /// Whether every connection lost has been made again (a gateway's health).
  var isConnected: Bool { state.withLock { $0.down == 0 } }

  func receive(_ notice: LinkNotice) {
    let line = state.withLock { state -> String? in
      switch notice {
      case .lost(let error):
        state.down += 1
        return state.down == 1 ? "lost the connection to \(endpoint): \(error); reconnecting with backoff" : nil
      case .restored:
        guard state.down > 0 else { return nil }
        state.down -= 1
        return state.down == 0 ? "reconnected to \(endpoint)" : nil
      case .outOfMemory(let message):
        guard !state.full else { return nil }
        state.full = true
        return "Redis at \(endpoint) is out of memory (\(message)); its writes wait until it has room"
      case .roomAgain:
        guard state.full else { return nil }
        state.full = false
        return "Redis at \(endpoint) has room again"
      }
    }
    if let line { log.warning(line) }
  }
}

extension ScaleOutError {
  /// The status a command ends with for this error: a conflict with the stored configuration is
  /// a usage error, a full Redis a temporary failure, anything else means Redis cannot be used.
  var exitStatus: ExitStatus {
    switch self {
    case .shardCountMismatch, .shardCountChanged, .invalidPrefix, .foreignConfiguration: .usage
    case .outOfMemory: .temporaryFailure
    case .unreachable: .unavailable
    }
  }
}
