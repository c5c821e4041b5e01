// A worker: the same `SearchPipeline` as a local run, fed with the keystrokes of the shards this
// worker holds and writing its events back to Redis. Three threads talk to Redis (the lease
// keeper, the reader, the committer), each on its own connection; the pipeline runs as it does
// anywhere else.
import Foundation
import LineIO
import Pipeline
import RESP
import Streams
import Synchronization

/// Runs one worker until stopped.
///
/// ```swift
/// let worker = ScaleOutWorker(
///   endpoint: try RedisEndpoint(url: "redis://127.0.0.1:6379"), keys: try ScaleOutKeys(prefix: "stream-search"),
///   settings: WorkerSettings(name: "w1"))
/// let summary = try await worker.run(configuration: PipelineConfiguration(), source: { CatalogSource() }, stop: stop)
/// ```
///
/// - Element: each keystroke of a held shard enters the pipeline as an input line of its session;
///   each event is committed to the shard's event stream (see docs/scale-out.md for the rules).
/// - Failure: Redis unreachable at the start throws ``ScaleOutError/unreachable(_:_:)``; later
///   failures are reconnected with backoff and reported through `notice`.
/// - Failure, later: a failure no reconnection fixes (credentials refused after a restart, a reply
///   of a type the command never answers), met by any of its threads, ends the
///   worker as a stop does, then throws ``ScaleOutError/unreachable(_:_:)``.
/// - Cancellation: when `stop` fires, reading stops, the events already emitted are committed
///   (for at most 2 s), every lease is given back and the worker leaves the live set; then the
///   pipeline is cancelled (its searches in flight are not committed: the shards' next owners
///   process their keystrokes again) and its summary returned.
package final class ScaleOutWorker: Sendable {
  private let endpoint: RedisEndpoint
  private let keys: ScaleOutKeys
  private let requestedShards: Int?
  private let settings: WorkerSettings
  private let notice: @Sendable (LinkNotice) -> Void
  private let report: @Sendable (WorkerReport) -> Void
  /// The running worker's shared state, while ``run(configuration:source:stop:wallClock:)`` runs.
  private let running = Mutex<WorkerContext?>(nil)

  /// A worker of the deployment under `keys` on `endpoint`; `requestedShards` is checked
  /// against the stored count (or stored, for a new prefix).
  package init(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, requestedShards: Int? = nil, settings: WorkerSettings,
    notice: @escaping @Sendable (LinkNotice) -> Void = { _ in },
    report: @escaping @Sendable (WorkerReport) -> Void = { _ in }
  ) {
    self.endpoint = endpoint
    self.keys = keys
    self.requestedShards = requestedShards
    self.settings = settings
    self.notice = notice
    self.report = report
  }

  /// Runs the pipeline over the held shards' keystrokes until `stop` fires; returns its summary.
  /// `source` is made once Redis has answered, so that a worker that cannot run says so before
  /// it loads a catalog.
  ///
  /// - Throws: ``ScaleOutError`` when Redis cannot be reached at the start, is out of memory, or
  ///   the shard count conflicts; `CancellationError` when `stop` fired before Redis answered.
  package func run(
    configuration: PipelineConfiguration, source makeSource: () -> any SearchSource, stop: CancellationSignal,
    wallClock: any WallClock = SystemWallClock()
  ) async throws -> RunSummary {
    let shardCount = try ShardCount.settle(
      requested: requestedShards, keys: keys, endpoint: endpoint, options: settings.connection, stop: stop)
    let source = makeSource()
    let context = try WorkerContext(
      endpoint: endpoint, keys: keys, shardCount: shardCount, settings: settings, notice: notice, report: report)
    running.withLock { $0 = context }
    defer { running.withLock { $0 = nil } }
    let sink = WorkerSink(context: context, wallClock: wallClock)
    var configuration = configuration
    let userLog = configuration.log
    // The pipeline's session names carry the shard; the user's log shows the client's own name.
    configuration.log = { message in
      if case .sessionForgotten(let name) = message {
        userLog?(.sessionForgotten(WorkerSink.userSession(name) ?? ""))
      } else {
        userLog?(message)
      }
    }
    configuration.observers.append(
      ClosureObserver { observation in
        if case .sessionForgotten(let name) = observation { sink.forgot(pipelineSession: name) }
      })
    let feed = AsyncFeed<InputRecord>()
    let pipeline = SearchPipeline(
      configuration: configuration, source: source, clock: ContinuousClock(), sink: sink.receive)
    let running = Task { await pipeline.run(feed) }
    let committer = try EventCommitter(context: context)
    let keeper = try LeaseKeeper(context: context)
    let reader = try ShardReader(context: context, feed: feed, stop: stop)
    committer.start()
    keeper.start()
    reader.start()
    await Self.waitOnOwnThread { reader.waitUntilFinished() }
    await Self.waitOnOwnThread {
      committer.flushAndStop(within: .seconds(2))
      keeper.releaseAll(within: .seconds(2))
    }
    running.cancel()
    let summary = await running.value
    if let failure = context.failure.withLock({ $0 }) { throw failure }
    return summary
  }

  /// Keystrokes read from each shard and not yet acknowledged; empty while the worker is not
  /// running. What `worker --metrics` reports as `stream_search_shard_pending`.
  package func pendingKeystrokes() -> [Int: Int] {
    guard let context = running.withLock({ $0 }) else { return [:] }
    return context.ledger.withLock { $0.pendingCounts() }
  }

  /// Runs blocking work on a thread of its own while the caller is suspended.
  static func waitOnOwnThread(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        work()
        continuation.resume()
      }
    }
  }
}
