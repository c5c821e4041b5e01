// SIGINT and SIGTERM as values on an AsyncStream, so the tool can stop in order: cancel the
// pipeline, write the shutdown events and the summary, then exit 130 or 143.
import Dispatch
import Foundation
import Synchronization

/// A signal that asks the tool to stop.
enum TerminationSignal: Sendable, CaseIterable, Equatable {
  /// SIGINT, e.g. Ctrl-C.
  case interrupt
  /// SIGTERM, e.g. `kill`.
  case terminate

  /// The signal's number.
  var number: Int32 {
    switch self {
    case .interrupt: SIGINT
    case .terminate: SIGTERM
    }
  }

  /// The status to exit with once shut down: 128 + the signal's number.
  var exitStatus: ExitStatus {
    switch self {
    case .interrupt: .interrupted
    case .terminate: .terminated
    }
  }
}

/// Catches termination signals and delivers them on ``signals`` instead of letting them kill the
/// process.
///
/// On creation each observed signal's default action is replaced by "ignore" (so it no longer
/// kills) and a `DispatchSource` watches for it; each arrival is yielded on ``signals``, in order,
/// none dropped. ``cancel()`` (or the observer's end) stops watching, finishes the stream and
/// restores the default actions, so a later signal kills as usual.
///
/// ```swift
/// let observer = SignalObserver()
/// let pipeline = Task(inheritingExecutor: { await run(options) })
/// Task(inheritingExecutor: {
///   for await signal in observer.signals {
///     pipeline.cancel()   // the pipeline writes its shutdown events and summary
///     await pipeline.value
///     exit(signal.exitStatus.rawValue)
///   }
/// })
/// ```
///
/// - Note: ``signals`` is a single-consumer `AsyncStream`: iterate it from one task.
final class SignalObserver: Sendable {
  /// The signals as they arrive; finishes on ``cancel()``.
  let signals: AsyncStream<TerminationSignal>
  private let continuation: AsyncStream<TerminationSignal>.Continuation
  /// The dispatch sources and their signals while observing; empty once cancelled.
  private let sources: Mutex<[(signal: TerminationSignal, source: any DispatchSourceSignal)]>

  /// Starts observing `observed` signals (both by default), delivering their handlers on `queue`.
  init(
    _ observed: [TerminationSignal] = TerminationSignal.allCases,
    queue: DispatchQueue = DispatchQueue(label: "stream-search.signals")
  ) {
    (signals, continuation) = AsyncStream.makeStream(of: TerminationSignal.self)
    var started: [(signal: TerminationSignal, source: any DispatchSourceSignal)] = []
    for signal in observed {
      // Ignore first: a signal that arrives before the source is watching must not kill us.
      Foundation.signal(signal.number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
      source.setEventHandler { [continuation] in
        continuation.yield(signal)
      }
      source.resume()
      started.append((signal, source))
    }
    sources = Mutex(started)
  }

  /// Stops observing, finishes ``signals`` and restores each signal's default action. Safe to
  /// call more than once.
  func cancel() {
    let stopped = sources.withLock { sources in
      defer { sources = [] }
      return sources
    }
    for (signal, source) in stopped {
      source.cancel()
      Foundation.signal(signal.number, SIG_DFL)
    }
    continuation.finish()
  }

  deinit {
    cancel()
  }
}
