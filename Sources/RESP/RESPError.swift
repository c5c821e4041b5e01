// Why a connection or a command failed: one error type for the whole client, each case with
// the one line a user needs to read.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of the client. After any of them but ``server(_:)`` and ``invalidEndpoint(_:)`` the
/// connection is closed: the byte stream can no longer be trusted to be in step with the server.
public enum RESPError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The address is not a usable `redis://` URL; the text says why.
  case invalidEndpoint(String)
  /// The host name did not resolve.
  case cannotResolve(host: String, reason: String)
  /// No connection could be made (refused, unreachable…): the errno of the last attempt.
  case connectFailed(errno: Int32)
  /// The server did not accept the connection, or did not answer, within the time allowed.
  case timedOut(Duration)
  /// The server closed the connection (or reset it) before answering.
  case closed
  /// A socket call failed with this errno.
  case ioFailed(errno: Int32)
  /// The bytes received are not RESP2, or a reply exceeds ``RESPLimits``.
  case protocolViolation(String)
  /// A reply of a type the command never answers (``RESPReplyKinds``): an integer to `XADD`, say.
  /// The bytes were valid RESP, but the server (or a proxy in front of it) is not a Redis this
  /// client can trust; a new connection would not change that.
  case unexpectedReply(command: String, reply: String, expected: String)
  /// The server refused a command the client needed to succeed (e.g. `AUTH`), with its message.
  case server(String)
  /// The server cannot answer yet (`-LOADING` after a restart, `-BUSY` while a script runs,
  /// `-TRYAGAIN`, `-MASTERDOWN`, `-CLUSTERDOWN`): the same command may succeed a moment later.
  case notReady(String)
  /// The stop signal fired while the client waited.
  case stopped

  /// One line, without the address (callers prefix it).
  public var description: String {
    switch self {
    case .invalidEndpoint(let reason): "invalid Redis URL: \(reason)"
    case .cannotResolve(let host, let reason): "cannot resolve '\(host)': \(reason)"
    case .connectFailed(let code): "cannot connect: \(Self.text(code))"
    case .timedOut(let limit): "no answer within \(limit)"
    case .closed: "the server closed the connection"
    case .ioFailed(let code): "connection failed: \(Self.text(code))"
    case .protocolViolation(let reason): "not a valid reply: \(reason)"
    case .unexpectedReply(let command, let reply, let expected):
      "not a valid reply: \(command) answered \(reply), where it answers \(expected)"
    case .server(let message): "the server refused: \(message)"
    case .notReady(let message): "the server is not ready: \(message)"
    case .stopped: "stopped"
    }
  }

  /// True for the failures a new connection may not have: the server restarting, a network
  /// blip, a timeout. False for a bad URL, a refused password, a stop.
  public var isTransient: Bool {
    switch self {
    case .connectFailed, .timedOut, .closed, .ioFailed, .protocolViolation, .cannotResolve, .notReady: true
    case .invalidEndpoint, .server, .unexpectedReply, .stopped: false
    }
  }

  private static func text(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
