// An HTTP/1.1 server with WebSockets (RFC 6455), small and dependency-free: one event-loop thread
// of its own does every socket call (epoll on Linux, poll elsewhere), handlers run as Swift
// tasks, and every timeout runs on an injected clock.
import Streams

/// A running server: it listens until ``stop()``.
///
/// ```swift
/// var routes = HTTPRoutes()
/// routes.get("/healthz") { _ in .text("ok\n") }
/// routes.webSocket("/ws") { socket in
///   for await text in socket.messages { socket.send(text.uppercased()) }
/// }
/// let server = try HTTPServer.start(host: "127.0.0.1", port: 0, routes: routes)
/// print("http://127.0.0.1:\(server.boundPort)")
/// …
/// await server.stop()
/// ```
///
/// What it implements and its limits (each with the answer past it) are in docs/webserver.md and
/// on ``HTTPServerConfiguration``. In short: keep-alive, `Content-Length` bodies (a chunked body
/// is answered 501), exact path routes (anything else 404), WebSocket text messages with
/// fragmentation, ping/pong and the closing handshake.
///
/// - **Clock**: the head timeout, the close timeout and the stop's grace run on `clock`, so a
///   test can drive them with a `ManualClock`.
/// - **Stopping**: ``stop()`` stops accepting, closes idle connections, lets in-flight responses
///   finish, closes every WebSocket with 1001, and after the grace closes what is left.
public final class HTTPServer: Sendable {
  /// The port listened on (the one the system picked when 0 was asked for).
  public let boundPort: UInt16
  /// The address listened on, as `HOST:PORT` (`[HOST]:PORT` for IPv6).
  public let address: String
  private let loop: EventLoop

  private init(boundPort: UInt16, address: String, loop: EventLoop) {
    self.boundPort = boundPort
    self.address = address
    self.loop = loop
  }

  /// Starts listening on `host`:`port` (port 0: a free one, see ``boundPort``) and serving
  /// `routes`, with timeouts on `clock`.
  ///
  /// - Throws: ``HTTPServerStartError``: the address is in use, not permitted (a privileged
  ///   port), or not an address of this machine.
  public static func start<C: Clock>(
    host: String, port: UInt16, routes: HTTPRoutes, configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
    clock: C = ContinuousClock()
  ) throws(HTTPServerStartError) -> HTTPServer where C.Duration == Duration {
    let listening = try ServerSockets.listen(host: host, port: port)
    let schedule: EventLoop.Schedule = { duration, action in
      ClockWake.schedule(on: clock, at: clock.now.advanced(by: duration), action)
    }
    let address = host.contains(":") ? "[\(host)]:\(listening.port)" : "\(host):\(listening.port)"
    let loop: EventLoop
    do {
      loop = try EventLoop(
        listener: listening.descriptor, routes: routes, configuration: configuration, schedule: schedule)
    } catch {
      ServerSockets.closeDescriptor(listening.descriptor)
      throw .systemCallFailed(address: address, call: "epoll_create", errno: 0)
    }
    loop.start()
    return HTTPServer(boundPort: listening.port, address: address, loop: loop)
  }

  /// How many connections are open (HTTP and WebSocket; not those being refused with 503).
  public var connectionCount: Int { loop.connectionCount.load(ordering: .relaxed) }

  /// Stops: no more connections are accepted, idle ones are closed, in-flight responses are sent
  /// (and their connections closed), every WebSocket is closed with 1001 (going away). Returns
  /// once every connection is closed, or after ``HTTPServerConfiguration/stopGrace`` on the clock,
  /// when the rest are closed without more waiting. Calling it again waits for the same end.
  public func stop() async {
    await loop.stop()
  }
}
