// `stream-search serve`: the pipeline of a local run, fed by WebSockets and `/search` instead of
// lines, behind the WebServer routes: `/` (the page), `/ws`, `/search`, `/healthz`, `/metrics`.
// Each socket is a session with its own debounce, distinct and cancel-previous; all share the cache
// and the rate budget. A signal stops accepting, closes every socket with 1001, prints the summary.
import Foundation
import Metrics
import Pipeline
import Streams
import Synchronization
import WebServer

/// Runs the server and says how the process should exit.
struct ServeCommand {
  let options: ServeOptions
  let log: Log
  let stop: StopRequest

  func run() async -> ExitStatus {
    let setup: RunSetup
    let metrics: SearchMetrics
    do {
      setup = try RunSetup(options: options.search, log: log)
      metrics = try SearchMetrics(role: .serve)
    } catch let error as SourceSetupError {
      log.error(error.message)
      return .noInput
    } catch {
      log.error("\(error)")
      return .ioError
    }
    let clock = ContinuousClock()
    var configuration = setup.configuration(log: log)
    configuration.observers.append(metrics)
    let sessions = SocketSessions()
    let feed = AsyncFeed<InputRecord>()
    let pipeline = SearchPipeline(
      configuration: configuration, source: setup.source(clock: clock), clock: clock, sink: sessions.deliver)
    let running = Task { await pipeline.run(feed) }
    let endpoint = SearchEndpoint(
      sessions: sessions, feed: feed, categories: configuration.categories, limit: configuration.limit)
    let server: HTTPServer
    do throws(HTTPServerStartError) {
      server = try HTTPServer.start(
        host: options.host, port: options.port, routes: routes(sessions, feed, endpoint, metrics),
        configuration: serverConfiguration, clock: clock)
    } catch {
      log.error(error.description)
      running.cancel()
      _ = await running.value
      if case .permissionDenied = error { return .noPermission }
      return .unavailable
    }
    // The first line on stderr names the address: scripts and tests read the port from it.
    log.stats("Serving http://\(server.address) (search page at /, WebSocket at /ws; Ctrl-C stops)")
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let once = Once(continuation)
      stop.whenRequested { once.resume() }
      if stop.signal != nil { once.resume() }
    }
    await server.stop()
    running.cancel()
    let summary = await running.value
    log.stats(PrettyEventFormatter().format(SearchEvent(seq: 0, atMilliseconds: 0, kind: .summary(summary))))
    return stop.signal?.exitStatus ?? .success
  }

  private var serverConfiguration: HTTPServerConfiguration {
    var configuration = HTTPServerConfiguration()
    configuration.allowedOrigins = options.allowedOrigins
    configuration.maxConnections = options.maxConnections
    configuration.maxMessageBytes = options.search.maxLineBytes
    return configuration
  }

  private func routes(
    _ sessions: SocketSessions, _ feed: AsyncFeed<InputRecord>, _ endpoint: SearchEndpoint, _ metrics: SearchMetrics
  ) -> HTTPRoutes {
    var routes = HTTPRoutes()
    routes.get("/") { _ in SearchPage.response() }
    routes.get("/healthz") { _ in .text("ok\n") }
    routes.get("/metrics") { _ in
      var headers = HTTPHeaders()
      headers.set("Content-Type", MetricsRegistry.contentType)
      return HTTPResponse(status: 200, headers: headers, body: Array(metrics.registry.exposition().utf8))
    }
    routes.get("/search") { request in await endpoint.answer(request) }
    routes.webSocket("/ws") { socket in
      let session = sessions.open(socket)
      metrics.connections?.add(1)
      for await text in socket.messages {
        switch ClientMessage(text) {
        case .term(let term):
          feed.yield(.keystroke(Keystroke(term: term, session: session), line: sessions.nextLine()))
        case .pick:
          metrics.picks?.increment()
        case .invalid:
          // Not a keystroke: the field's state is unchanged.
          break
        }
      }
      // Closed: its events go nowhere from now on, and a clear that ends the session cancels its
      // search in flight and frees its state.
      sessions.close(session)
      feed.yield(.keystroke(Keystroke(term: "", session: session, endsSession: true), line: sessions.nextLine()))
      metrics.connections?.add(-1)
    }
    return routes
  }
}

/// Resumes a continuation once, whichever of its callers comes first.
private final class Once: Sendable {
  private let continuation: Mutex<CheckedContinuation<Void, Never>?>

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = Mutex(continuation)
  }

  func resume() {
    continuation.withLock { $0.take() }?.resume()
  }
}
