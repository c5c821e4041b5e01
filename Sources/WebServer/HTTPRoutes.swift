// The paths a server answers, each with its handler. A path is matched exactly, byte for byte:
// anything else (another path, `..`, an escaped slash) is 404.

/// A handler for a plain request: runs as a Swift task, answers once.
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse

/// A handler for an accepted WebSocket: runs as a Swift task for as long as it wants the
/// connection. When it returns, the server closes the connection (1000) if it is still open.
public typealias WebSocketHandler = @Sendable (WebSocketConnection) async -> Void

/// The server's routes: `GET` paths and WebSocket paths.
///
/// ```swift
/// var routes = HTTPRoutes()
/// routes.get("/") { _ in .html(page) }
/// routes.webSocket("/ws") { socket in
///   for await text in socket.messages { _ = socket.send(text) }   // an echo
/// }
/// ```
///
/// A `GET` route also answers `HEAD` (the same response without its body). A known path asked
/// with another method is 405; an unknown path is 404.
public struct HTTPRoutes: Sendable {
  var plain: [String: HTTPHandler] = [:]
  var sockets: [String: WebSocketHandler] = [:]

  /// No routes: every request is 404.
  public init() {}

  /// Answers `GET` (and `HEAD`) requests for exactly `path` with `handler`.
  public mutating func get(_ path: String, _ handler: @escaping HTTPHandler) {
    plain[path] = handler
  }

  /// Accepts WebSocket upgrades at exactly `path` and hands each connection to `handler`. A
  /// request to that path that is not an upgrade is 426.
  public mutating func webSocket(_ path: String, _ handler: @escaping WebSocketHandler) {
    sockets[path] = handler
  }
}
