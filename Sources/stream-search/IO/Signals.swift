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
/// When `init` returns, each observed signal is being watched by a `DispatchSource`: every arrival
/// from then on is yielded on ``signals``, in order, none dropped. ``cancel()`` (or the observer's
/// end) stops watching and finishes the stream.
///
/// ```swift
/// let observer = SignalObserver()
/// let pipeline = Task(inheritingExecutor: { await run() })
/// var iterator = observer.signals.makeAsyncIterator()
/// if let signal = await iterator.next() {
///   pipeline.cancel()   // the pipeline writes its shutdown events and summary
///   await pipeline.value
///   exit(signal.exitStatus.rawValue)
/// }
/// ```
///
/// ## Caveats
/// - A signal, once observed, never again kills the process by its default action, even after
///   ``cancel()``: the process must exit by itself. (The signal's default action is set to
///   "ignore" before watching starts, as a dispatch source needs; on Linux, libdispatch then
///   installs a handler of its own that forwards to its watcher and must stay installed for any
///   later observer to work, so the default is not restored.) To let a second Ctrl-C end a stuck
///   shutdown, keep reading ``signals`` and exit on the second element.
/// - ``signals`` is a single-consumer `AsyncStream`: iterate it from one task.
/// - Several observers of one signal at once each receive every arrival.
final class SignalObserver: Sendable {
  /// The signals as they arrive; finishes on ``cancel()``.
  let signals: AsyncStream<TerminationSignal>
  private let continuation: AsyncStream<TerminationSignal>.Continuation
  /// The dispatch sources while observing; empty once cancelled.
  private let sources: Mutex<[any DispatchSourceSignal]>

  /// Starts observing `observed` signals (both by default) and returns once they are watched.
  ///
  /// Blocks the calling thread until the dispatch sources are registered, a short wait for
  /// dispatch's own event thread, so that a signal sent after `init` returns is never lost.
  /// `onArrival`, when given, is called with each signal on the observer's own dispatch queue
  /// before it is yielded: it runs even when every task thread is blocked (e.g. in a write to a
  /// full pipe), so it is where a stop request must be made.
  init(
    _ observed: [TerminationSignal] = TerminationSignal.allCases,
    onArrival: (@Sendable (TerminationSignal) -> Void)? = nil
  ) {
    (signals, continuation) = AsyncStream.makeStream(of: TerminationSignal.self)
    let queue = DispatchQueue(label: "stream-search.signals")
    let registered = DispatchSemaphore(value: 0)
    var started: [any DispatchSourceSignal] = []
    for signal in observed {
      Self.prepare(signal)
      let source = DispatchSource.makeSignalSource(signal: signal.number, queue: queue)
      source.setEventHandler { [continuation] in
        onArrival?(signal)
        continuation.yield(signal)
      }
      source.setRegistrationHandler {
        registered.signal()
      }
      source.resume()
      started.append(source)
    }
    for _ in started { registered.wait() }
    sources = Mutex(started)
  }

  /// Stops observing and finishes ``signals``. Safe to call more than once.
  func cancel() {
    let stopped = sources.withLock { sources in
      defer { sources = [] }
      return sources
    }
    for source in stopped { source.cancel() }
    continuation.finish()
  }

  deinit {
    cancel()
  }

  /// Replaces the default action (terminate) of `signal` with "ignore", the first time only: it
  /// must not kill the process before its source is watching, and resetting it later would undo
  /// the handler libdispatch installs on Linux.
  private static func prepare(_ signal: TerminationSignal) {
    switch signal {
    case .interrupt: interruptIgnored
    case .terminate: terminationIgnored
    }
  }

  // Lazily initialised once, by the runtime, and not under a lock of ours: a second observer
  // waits until the first one's call has been made, so none watches before the default is gone.
  private static let interruptIgnored: Void = { _ = Foundation.signal(SIGINT, SIG_IGN) }()
  private static let terminationIgnored: Void = { _ = Foundation.signal(SIGTERM, SIG_IGN) }()
}
