// `worker --metrics HOST:PORT`: the worker's metrics and the server that exposes them, the same
// routes as `serve` on the same WebServer, with the worker's own gauges: the shards it holds (from
// its reports) and the keystrokes read from each and not yet acknowledged (read at each scrape).
import Metrics
import ScaleOut
import Synchronization
import WebServer

/// A worker's metrics.
final class WorkerMetrics: Sendable {
  let search: SearchMetrics
  private let held = Mutex<Set<Int>>([])

  init() throws(MetricsError) {
    search = try SearchMetrics(role: .worker)
  }

  /// Follows the worker's reports: a shard taken, given back or lost.
  func receive(_ report: WorkerReport) {
    switch report {
    case .acquired(let shard, _):
      let count = held.withLock { held in
        held.insert(shard)
        return held.count
      }
      search.shardsHeld?.set(count)
    case .released(let shard), .lost(let shard):
      let count = held.withLock { held in
        held.remove(shard)
        return held.count
      }
      search.shardsHeld?.set(count)
      // A shard given up is no longer listed.
      search.shardPending?.remove([String(shard)])
    case .fencedOut, .commitFailed, .restoredConfiguration, .trimmed:
      break
    }
  }

  /// Brings the gauges up to date for a scrape: `pending` keystrokes per shard.
  func refresh(pending: [Int: Int]) {
    let shards = held.withLock { $0 }
    search.shardsHeld?.set(shards.count)
    for shard in shards { search.shardPending?.labels(String(shard))?.set(pending[shard] ?? 0) }
  }

  /// Starts the server of `/metrics` and `/healthz` on `address`, its address said on stderr; when
  /// it cannot listen, one `Error:` line and the status to exit with.
  func serve(
    on address: ListenAddress, worker: ScaleOutWorker, notices: RedisNotices, log: Log
  ) -> Result<HTTPServer, MetricsListenFailure> {
    var routes = HTTPRoutes()
    routes.addOperatorRoutes(
      metrics: search.registry, beforeScrape: { [self] in refresh(pending: worker.pendingKeystrokes()) }
    ) {
      notices.isConnected ? nil : "Redis at \(notices.endpoint) is unreachable"
    }
    do throws(HTTPServerStartError) {
      let server = try HTTPServer.start(
        host: address.host, port: address.port, routes: routes, configuration: HTTPServerConfiguration(),
        clock: ContinuousClock())
      log.stats("Serving metrics at http://\(server.address)/metrics")
      return .success(server)
    } catch {
      log.error(error.description)
      if case .permissionDenied = error { return .failure(MetricsListenFailure(status: .noPermission)) }
      return .failure(MetricsListenFailure(status: .unavailable))
    }
  }
}

/// `--metrics` could not listen; the status to exit with.
struct MetricsListenFailure: Error {
  let status: ExitStatus
}
