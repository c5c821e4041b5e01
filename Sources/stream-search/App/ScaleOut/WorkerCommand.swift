// `stream-search worker`: the local run's pipeline, built from the same options by the same
// `RunSetup`, run by a `ScaleOutWorker` over a share of the shards on Redis until a signal, with
// the deployment's shared store (answers and rate budget) on the same Redis.
import LineIO
import Pipeline
import ScaleOut
import Streams
import WebServer

/// Runs a worker and says how the process should exit.
struct WorkerCommand {
  let options: WorkerOptions
  let log: Log
  let stop: StopRequest

  func run() async -> ExitStatus {
    // With --redis the shared store is the deployment's, on Redis, for every worker: where a
    // local run would open its cache directory, the worker opens that instead.
    let sharesAnswers = RunSetup.cacheDirectory(for: options.search) != nil
    var search = options.search
    search.cacheDirectory = .none
    let setup: RunSetup
    do {
      setup = try RunSetup(options: search, log: log)
    } catch {
      log.error(error.message)
      return .noInput
    }
    let stopSignal: CancellationSignal
    if let wakeUp = stop.wakeUp {
      stopSignal = wakeUp
    } else {
      log.error("cannot watch for signals: no pipe could be made")
      return .ioError
    }
    let notices = RedisNotices(endpoint: options.redis.endpoint, log: log)
    let metrics: WorkerMetrics?
    do {
      metrics = options.metrics == nil ? nil : try WorkerMetrics()
    } catch {
      log.error("\(error)")
      return .ioError
    }
    let verbose = log.level >= .verbose
    let worker = ScaleOutWorker(
      endpoint: options.redis.endpoint, keys: options.redis.keys, requestedShards: options.redis.shards,
      settings: options.settings, notice: notices.receive,
      report: { [log, keys = options.redis.keys] report in
        metrics?.receive(report)
        if case .restoredConfiguration(let shards) = report {
          // Said whatever the verbosity: the prefix was found empty under running workers.
          log.warning(
            "'\(keys.configuration)' was gone (Redis flushed, or restarted without its data): stored again with "
              + "\(shards) shards")
        } else if verbose {
          log.diagnostic(report.description)
        }
      })
    var configuration = setup.configuration(log: log)
    var server: HTTPServer?
    if let metrics, let address = options.metrics {
      configuration.observers.append(metrics.search)
      switch metrics.serve(on: address, worker: worker, notices: notices, log: log) {
      case .success(let started): server = started
      case .failure(let failure): return failure.status
      }
    }
    if sharesAnswers {
      configuration.store = RedisStore(
        endpoint: options.redis.endpoint, keys: options.redis.keys, capacity: options.search.pipeline.cacheCapacity,
        options: options.settings.connection
      ) { [log] line in log.warning(line) }
    }
    let outcome: Result<RunSummary, any Error>
    do {
      outcome = .success(
        try await worker.run(
          configuration: configuration, source: { setup.source(clock: ContinuousClock()) }, stop: stopSignal))
    } catch {
      outcome = .failure(error)
    }
    // The metrics stay scrapeable until the worker has given its shards back.
    await server?.stop()
    let summary: RunSummary
    switch outcome {
    case .success(let ran):
      summary = ran
    case .failure(let error as ScaleOutError):
      log.error(error.description)
      return error.exitStatus
    case .failure(is CancellationError):
      // Stopped before Redis answered at the start.
      return stop.signal?.exitStatus ?? .interrupted
    case .failure(let error):
      log.error("\(error)")
      return .unavailable
    }
    if options.search.stats {
      log.stats(PrettyEventFormatter().format(SearchEvent(seq: 0, atMilliseconds: 0, kind: .summary(summary))))
    }
    return stop.signal?.exitStatus ?? .success
  }
}
