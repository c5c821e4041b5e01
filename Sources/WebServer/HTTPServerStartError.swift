// Why a server could not start, told apart so that a command can choose its exit status (69 for
// an address it cannot have, 77 for a privileged port) and print one line naming the address.

/// A server that could not start listening.
public enum HTTPServerStartError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Another socket holds the address (EADDRINUSE).
  case addressInUse(address: String)
  /// Not allowed to listen there (EACCES, EPERM): typically a port below 1024 without privilege.
  case permissionDenied(address: String)
  /// The host is not an address of this machine or cannot be resolved (EADDRNOTAVAIL, a failed lookup).
  case badAddress(address: String, reason: String)
  /// Any other failure of a system call, with its errno.
  case systemCallFailed(address: String, call: String, errno: Int32)

  /// The `HOST:PORT` asked for.
  public var address: String {
    switch self {
    case .addressInUse(let address), .permissionDenied(let address), .badAddress(let address, _),
      .systemCallFailed(let address, _, _):
      address
    }
  }

  /// One line naming the address and the reason, e.g. "cannot listen on 127.0.0.1:80: permission denied".
  public var description: String {
    switch self {
    case .addressInUse(let address): "cannot listen on \(address): address already in use"
    case .permissionDenied(let address): "cannot listen on \(address): permission denied"
    case .badAddress(let address, let reason): "cannot listen on \(address): \(reason)"
    case .systemCallFailed(let address, let call, let code):
      "cannot listen on \(address): \(call) failed (errno \(code))"
    }
  }
}
