// A server on a free loopback port for one test, with the routes most tests need: a fixed page,
// an echo over WebSocket, and one that reports what its handler saw. Always stopped at the end.
import Streams
import TestSupport
import WebServer

/// The routes the tests share.
enum FixtureRoutes {
  static func standard(extra: (inout HTTPRoutes) -> Void = { _ in }) -> HTTPRoutes {
    var routes = HTTPRoutes()
    routes.get("/hello") { _ in .text("hello\n") }
    routes.get("/search") { request in .json(#"{"q":"\#(request.queryValue("q") ?? "")"}"#) }
    routes.webSocket("/ws") { socket in
      for await text in socket.messages {
        guard socket.send(text) == .queued else { break }
      }
    }
    extra(&routes)
    return routes
  }
}

/// Runs `body` with a started server, then stops it (also when `body` throws).
///
/// On the real clock the head timeout is the suite's hang bound: a loaded machine may leave a
/// connection idle for more than the 10 s default between two steps of a test, and the timeouts
/// themselves are tested on a `ManualClock`.
func withServer<T>(
  routes: HTTPRoutes = FixtureRoutes.standard(), configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
  clock: some Clock<Duration> = ContinuousClock(), _ body: (HTTPServer) async throws -> T
) async throws -> T {
  var configuration = configuration
  if clock is ContinuousClock { configuration.headTimeout = max(configuration.headTimeout, hangBound) }
  let server = try HTTPServer.start(
    host: "127.0.0.1", port: 0, routes: routes, configuration: configuration, clock: clock)
  do {
    let value = try await body(server)
    await server.stop()
    return value
  } catch {
    await server.stop()
    throw error
  }
}

/// `work` (blocking socket calls) on a thread of its own, never a task thread: the server's
/// handlers need those.
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await OwnThread.value(of: work)
}

/// Waits (bounded) until `condition` holds, checking after each short real-time pause: for a
/// state of the server a test cannot be told of, such as its connection count.
func eventually(within bound: Duration = hangBound, _ condition: @Sendable () -> Bool) async -> Bool {
  await poll(every: .milliseconds(5), within: bound) { condition() ? true : nil } ?? false
}
