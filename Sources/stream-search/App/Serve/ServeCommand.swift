// `stream-search serve`: the pipeline of a local run, fed by WebSockets and `/search` instead of
// lines, behind the WebServer routes: `/` (the page), `/ws`, `/search`, `/healthz`, `/metrics`.
// Each socket is a session with its own debounce, distinct and cancel-previous; all share the cache
// and the rate budget. A signal stops accepting, closes every socket with 1001, prints the summary.
// With `--redis` the same routes front the workers instead (ServeCommand+Gateway).
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
    let metrics: SearchMetrics
    do {
      metrics = try SearchMetrics(role: .serve)
    } catch {
      log.error("\(error)")
      return .ioError
    }
    if let redis = options.redis { return await runGateway(redis, metrics: metrics) }
    return await runLocal(metrics: metrics)
  }

  private func runLocal(metrics: SearchMetrics) async -> ExitStatus {
    let setup: RunSetup
    do {
      setup = try RunSetup(options: options.search, log: log)
    } catch {
      log.error(error.message)
      return .noInput
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
    var routes = HTTPRoutes()
    routes.get("/") { _ in SearchPage.response() }
    routes.addOperatorRoutes(metrics: metrics.registry) { nil }
    routes.get("/search") { request in await endpoint.answer(request) }
    routes.webSocket("/ws") { socket in
      let session = sessions.open(socket)
      metrics.connections?.add(1)
      var message = 0
      for await text in socket.messages {
        message += 1
        switch ClientMessage(text) {
        case .term(let term):
          feed.yield(.keystroke(Keystroke(term: term, session: session), line: sessions.nextLine()))
        case .pick:
          metrics.picks?.increment()
        case .invalid(let reason):
          // Not a keystroke: the field's state is unchanged, and the client is told, as a bad
          // input line is (counted in the summary's input errors).
          feed.yield(.invalid(line: sessions.nextLine(invalidMessage: message, of: session), reason: reason))
        }
      }
      // Closed: its events go nowhere from now on, and a clear that ends the session cancels its
      // search in flight and frees its state.
      sessions.close(session)
      feed.yield(.keystroke(Keystroke(term: "", session: session, endsSession: true), line: sessions.nextLine()))
      metrics.connections?.add(-1)
    }
    let server: HTTPServer
    switch listen(routes, clock: clock) {
    case .serving(let started):
      server = started
    case .failed(let status):
      running.cancel()
      _ = await running.value
      return status
    }
    await waitForStop()
    await server.stop()
    running.cancel()
    let summary = await running.value
    log.stats(PrettyEventFormatter().format(SearchEvent(seq: 0, atMilliseconds: 0, kind: .summary(summary))))
    return stop.signal?.exitStatus ?? .success
  }

  /// What starting the server came to.
  enum Listening {
    case serving(HTTPServer)
    /// It cannot listen (one `Error:` line said why): 77 for a privileged port, else 69.
    case failed(ExitStatus)
  }

  /// The server started on the options' address, its address said on the first stderr line.
  func listen(_ routes: HTTPRoutes, clock: ContinuousClock) -> Listening {
    do throws(HTTPServerStartError) {
      let server = try HTTPServer.start(
        host: options.host, port: options.port, routes: routes, configuration: serverConfiguration, clock: clock)
      // The first line on stderr names the address: scripts and tests read the port from it.
      log.stats("Serving http://\(server.address) (search page at /, WebSocket at /ws; Ctrl-C stops)")
      return .serving(server)
    } catch {
      log.error(error.description)
      if case .permissionDenied = error { return .failed(.noPermission) }
      return .failed(.unavailable)
    }
  }

  /// Returns once a signal asked the process to stop.
  func waitForStop() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let once = Once(continuation)
      stop.whenRequested { once.resume() }
      if stop.signal != nil { once.resume() }
    }
  }

  private var serverConfiguration: HTTPServerConfiguration {
    var configuration = HTTPServerConfiguration()
    configuration.allowedOrigins = options.allowedOrigins
    configuration.maxConnections = options.maxConnections
    configuration.maxMessageBytes = options.search.maxLineBytes
    return configuration
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
