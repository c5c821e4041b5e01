// The signals only a terminal session cares about: SIGWINCH (the window was resized: redraw at
// the new size), SIGHUP (the terminal went away: restore and end), SIGTSTP (stop: hand the
// terminal back first) and SIGCONT (continued: take it again and redraw). SIGINT and SIGTERM are
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
  /// SIGTSTP: the process stops as soon as the handler returns, so the handler hands the
  /// terminal back.
  case suspend
  /// SIGCONT: the process continued (after a stop, or a continue without one).
  case continued
}

/// Watches SIGWINCH, SIGHUP, SIGTSTP and SIGCONT with dispatch sources while the screen is up.
///
/// - Element: `handler` runs on a serial queue once per arrival (arrivals close together may be
///   coalesced into one, as dispatch does; a redraw at the newest size is all a resize needs).
/// - Stop: after `handler(.suspend)` returns, the process stops as SIGTSTP's default action would
///   (the default is put in place for one raise, and the watcher's handler back on continue), so a
///   shell sees its job stopped. When the process group is orphaned, the kernel would discard the
///   stop, so the signal is ignored and the screen stays up.
/// - Finish: ``cancel()`` stops watching. The signals' default actions are replaced with "ignore"
///   before watching starts, as a dispatch source needs, and are not put back (see
///   ``SignalObserver``'s caveats): the screen exits by itself after a hang-up.
final class TerminalSignals: Sendable {
  private let sources: Mutex<[any DispatchSourceSignal]>

  /// Starts watching, and returns once every signal is watched (a short wait for dispatch's
  /// event thread), so that a signal sent after `init` returns is never lost; `handler` receives
  /// each signal.
  init(_ handler: @escaping @Sendable (TerminalSignal) -> Void) {
    let queue = DispatchQueue(label: "stream-search.terminal-signals")
    let registered = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    let stop = ProcessStop()
    let watched = [
      (SIGWINCH, TerminalSignal.resized), (SIGHUP, .hangUp), (SIGTSTP, .suspend), (SIGCONT, .continued),
    ]
    for (number, signal) in watched {
      Foundation.signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        switch signal {
        case .suspend:
          guard ProcessStop.wouldStop else { return }
          handler(signal)
          stop.stop()
        case .continued:
          stop.continued()
          handler(signal)
        case .resized, .hangUp:
          handler(signal)
        }
      }
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

/// Stops the process with SIGTSTP's default action while a dispatch source watches SIGTSTP.
///
/// The watcher's handler is swapped for the default, the signal raised, and the watcher's handler
/// put back only once the process has continued: put back earlier, a raise not yet taken would
/// reach the watcher again instead of stopping the process.
private final class ProcessStop: Sendable {
  /// The watcher's action while the default one is in place; nil otherwise.
  private let watcher = Mutex<sigaction?>(nil)

  /// Whether a stop signal stops this process: the kernel discards SIGTSTP's stop for an orphaned
  /// process group (no parent in the session, in another group, that could continue it). The
  /// parent alone is asked: a shell running the tool as a job is such a parent.
  static var wouldStop: Bool {
    let parent = getppid()
    return getsid(parent) == getsid(0) && getpgid(parent) != getpgrp()
  }

  /// Raises the stop, which the kernel takes at once or as soon as a thread of the process runs.
  func stop() {
    var stopping = sigaction()
    sigemptyset(&stopping.sa_mask)
    var current = sigaction()
    guard sigaction(SIGTSTP, &stopping, &current) == 0 else { return }
    // Only the first raise saves the watcher: a second one would save the default instead.
    watcher.withLock { saved in
      if saved == nil { saved = current }
    }
    kill(getpid(), SIGTSTP)
  }

  /// The process continued: SIGTSTP's watcher gets the signal again.
  func continued() {
    let saved = watcher.withLock { saved in
      defer { saved = nil }
      return saved
    }
    guard var saved else { return }
    _ = sigaction(SIGTSTP, &saved, nil)
  }
}
