// The two signals only a terminal session cares about: SIGWINCH (the window was resized: redraw
// at the new size) and SIGHUP (the terminal went away: restore and end). SIGINT and SIGTERM are
// the whole tool's and arrive through SignalObserver.
import Dispatch
import Foundation
import Synchronization

/// A signal that concerns the terminal.
enum TerminalSignal: Sendable {
  /// SIGWINCH.
  case resized
  /// SIGHUP.
  case hangUp
}

/// Watches SIGWINCH and SIGHUP with dispatch sources while the screen is up.
///
/// - Element: `handler` runs on a serial queue once per arrival (arrivals close together may be
///   coalesced into one, as dispatch does; a redraw at the newest size is all a resize needs).
/// - Finish: ``cancel()`` stops watching. SIGHUP's default action (terminate) is replaced with
///   "ignore" before watching starts, as a dispatch source needs, and is not put back (see
///   ``SignalObserver``'s caveats): the screen exits by itself after a hang-up.
final class TerminalSignals: Sendable {
  private let sources: Mutex<[any DispatchSourceSignal]>

  /// Starts watching, and returns once both signals are watched (a short wait for dispatch's
  /// event thread), so that a signal sent after `init` returns is never lost; `handler` receives
  /// each signal.
  init(_ handler: @escaping @Sendable (TerminalSignal) -> Void) {
    let queue = DispatchQueue(label: "stream-search.terminal-signals")
    let registered = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    for (number, signal) in [(SIGWINCH, TerminalSignal.resized), (SIGHUP, .hangUp)] {
      Foundation.signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { handler(signal) }
      source.setRegistrationHandler { registered.signal() }
      source.resume()
      sources.append(source)
    }
    for _ in sources { registered.wait() }
    self.sources = Mutex(sources)
  }

  /// Stops watching.
  func cancel() {
    let stopped = sources.withLock { sources in
      defer { sources = [] }
      return sources
    }
    for source in stopped { source.cancel() }
  }
}
