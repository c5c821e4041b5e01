// `stream-search serve --redis URL`: the same routes as the in-process serve, in front of the
// workers. Each socket is a session of its own, its keystrokes published as `publish` publishes
// them and its events forwarded as the workers commit them; closing the socket clears the field,
// so the worker cancels the search in flight. While Redis is away `/healthz` is 503, a new socket
// is closed with 1013 and a `/search` answered 503: nothing waits on a server that is not there.
import Foundation
import Metrics
import Pipeline
import ScaleOut
import WebServer

extension ServeCommand {
  func runGateway(_ redis: RedisOptions, metrics: SearchMetrics) async -> ExitStatus {
    let clock = ContinuousClock()
    let gateway: RedisGateway
    do {
      gateway = try RedisGateway.connect(redis, log: log, stop: stop.wakeUp, clock: clock)
    } catch let error as ScaleOutError {
      log.error(error.description)
      return error.exitStatus
    } catch is CancellationError {
      return stop.signal?.exitStatus ?? .interrupted
    } catch {
      log.error("\(error)")
      return .unavailable
    }
    var routes = HTTPRoutes()
    routes.get("/") { _ in SearchPage.response() }
    routes.addOperatorRoutes(metrics: metrics.registry) { gateway.unavailability }
    routes.get("/search") { request in await Self.search(request, gateway: gateway, metrics: metrics, clock: clock) }
    routes.webSocket("/ws") { socket in await Self.converse(socket, gateway: gateway, metrics: metrics) }
    let server: HTTPServer
    switch listen(routes, clock: clock) {
    case .serving(let started):
      server = started
    case .failed(let status):
      _ = await gateway.stop(within: .zero)
      return status
    }
    await waitForStop()
    await server.stop()
    // The sockets' last clears are sent, if Redis takes them in time.
    let outcome = await gateway.stop(within: .seconds(2))
    log.stats("summary: \(outcome.storedText) on Redis at \(redis.endpoint)")
    return stop.signal?.exitStatus ?? .success
  }

  /// One socket's session: its messages published, its events sent back by the gateway's reader.
  private static func converse(_ socket: WebSocketConnection, gateway: RedisGateway, metrics: SearchMetrics) async {
    if let reason = gateway.unavailability {
      // 1013: try again later. A client that reconnects gets a session once Redis is back.
      socket.close(code: 1013, reason: reason)
      return
    }
    let session = gateway.sessions.open(socket)
    metrics.connections?.add(1)
    var message = 0
    var typed = false
    for await text in socket.messages {
      message += 1
      switch ClientMessage(text) {
      case .term(let term):
        typed = true
        metrics.keystrokes.increment()
        await gateway.publish(term, session: session)
      case .pick:
        metrics.picks?.increment()
      case .invalid(let reason):
        // Not a keystroke: nothing is published, and the client is told as a bad input line is.
        gateway.sessions.send(
          SearchEvent(seq: 0, atMilliseconds: 0, kind: .inputError(line: message, reason: reason)), to: session)
      }
    }
    gateway.sessions.close(session)
    metrics.connections?.add(-1)
    if typed {
      // A clear: the worker cancels the session's search in flight; it forgets the session once
      // it has been idle for its --session-idle.
      metrics.keystrokes.increment()
      await gateway.publish("", session: session)
    }
  }

  /// `GET /search?q=TERM` through the workers: one keystroke in a session of its own, answered
  /// with that session's `results` (or `error`) event.
  private static func search(
    _ request: HTTPRequest, gateway: RedisGateway, metrics: SearchMetrics, clock: ContinuousClock
  ) async -> HTTPResponse {
    guard let term = request.queryValue("q"), !term.allSatisfy(\.isWhitespace) else {
      return SearchEndpoint.badParameter("q", "expected the text to search, e.g. q=taylor")
    }
    for name in ["categories", "limit"] where request.queryValue(name) != nil {
      return SearchEndpoint.badParameter(name, "not available with --redis: the workers' options choose it")
    }
    if let reason = gateway.unavailability { return .json(#"{"error":{"message":"\#(reason)"}}"#, status: 503) }
    metrics.keystrokes.increment()
    guard let body = await gateway.searchOnce(term, clock: clock) else {
      let seconds = RedisGateway.answerTimeout.components.seconds
      return .json(#"{"error":{"message":"no worker answered within \#(seconds) s"}}"#, status: 504)
    }
    var headers = HTTPHeaders()
    headers.set("Content-Type", "application/json")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(status: 200, headers: headers, body: body)
  }
}
