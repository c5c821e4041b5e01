// The controlling terminal, opened as /dev/tty as fzf does, so that standard output stays free
// for the selection: raw mode and the alternate screen on the way in, and everything put back
// on the way out, whatever the way out is.
import Foundation
import Streams
import Synchronization

/// Why the interactive screen cannot start.
struct TerminalUnavailable: Error, Equatable, Sendable {
  /// One line for standard error, e.g. `the interactive mode needs a terminal: …`.
  let message: String
}

/// The terminal the interactive screen is drawn on and its keys are read from.
///
/// ``open(environment:)`` opens `/dev/tty`; ``enterFullScreen()`` switches it to raw mode (no
/// echo, no line editing, no signals from Ctrl-C: they arrive as keys) and the alternate screen;
/// ``restore()`` puts back the modes it found, shows the cursor and leaves the alternate screen.
/// ``suspend()`` and ``resume()`` do the same for a stop (SIGTSTP) and the continue after it, as
/// less and vim do: the shell gets its terminal back while the tool is stopped, and the screen
/// comes back, raw, when it continues. ``restore()`` is idempotent and safe from any thread, so
/// every exit path can call it.
///
/// The lock only decides: each call changes the mode and queues its writes and mode changes, in
/// the order decided, and they are made with the lock released by whichever thread finds nobody
/// making them. So a frame queued before ``restore()`` is written before the terminal is put
/// back, one queued after is dropped, and ``enterFullScreen()``, ``suspend()``, ``resume()`` and
/// ``restore()`` return only once their own changes are made (a stop must not come before them).
final class TerminalDevice: Sendable {
  /// Where the terminal is: as found, full screen, handed back during a stop, or put back for good.
  private enum Mode {
    case asFound
    case fullScreen
    case suspended
    case restored
  }

  /// A change to the terminal, made in order with the lock released.
  private enum Change {
    case write([UInt8])
    /// tcsetattr(3) with these modes, `TCSAFLUSH` (entering: typed-ahead bytes of the shell are
    /// not keys) or `TCSANOW`.
    case setModes(termios, flush: Bool)
    /// Wakes the caller that waits for the changes queued before it.
    case done(DispatchSemaphore)
  }

  private struct State {
    var mode = Mode.asFound
    /// The modes to put back: those found at open, or at the latest continue.
    var original: termios
    var changes = DeliveryQueue<Change>()
  }

  /// The descriptor of `/dev/tty`, open for reading and writing.
  let fileDescriptor: Int32
  private let writer: OutputWriter
  private let state: Mutex<State>

  private init(fileDescriptor: Int32, original: termios) {
    self.fileDescriptor = fileDescriptor
    writer = OutputWriter(fileDescriptor: fileDescriptor)
    state = Mutex(State(original: original))
  }

  /// Opens the controlling terminal.
  ///
  /// - Throws: ``TerminalUnavailable`` when there is none (no controlling terminal, or it is not a
  ///   terminal) or `TERM` is `dumb`, which cannot move the cursor.
  static func open(environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(TerminalUnavailable) -> TerminalDevice
  {
    if environment["TERM"] == "dumb" {
      throw TerminalUnavailable(
        message: "the interactive mode needs a terminal that can move the cursor, and TERM is 'dumb'; use --lines")
    }
    let descriptor = Foundation.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      throw TerminalUnavailable(message: "the interactive mode needs a terminal: cannot open /dev/tty (\(reason))")
    }
    var modes = termios()
    guard isatty(descriptor) != 0, tcgetattr(descriptor, &modes) == 0 else {
      close(descriptor)
      throw TerminalUnavailable(message: "the interactive mode needs a terminal: /dev/tty is not one")
    }
    return TerminalDevice(fileDescriptor: descriptor, original: modes)
  }

  /// The terminal's size now; 24 × 80 when it does not say.
  var size: TerminalSize {
    var window = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 else {
      return TerminalSize(rows: 24, columns: 80)
    }
    return TerminalSize(rows: Int(window.ws_row), columns: Int(window.ws_col))
  }

  /// Raw mode and the alternate screen.
  func enterFullScreen() {
    make(waiting: true) { state in
      guard state.mode == .asFound else { return [] }
      return enter(&state)
    }
  }

  /// Hands the terminal back for a stop: as ``restore()``, but ``resume()`` can come back.
  func suspend() {
    make(waiting: true) { state in
      guard state.mode == .fullScreen else { return [] }
      state.mode = .suspended
      return leave(state)
    }
  }

  /// The process continued: raw mode and the alternate screen again, whatever the shell did with
  /// the terminal meanwhile. The modes to put back are read anew after a ``suspend()`` (the shell
  /// may have changed them); a continue without one (a SIGSTOP the tool never saw, after which
  /// shells put their own modes back) sets raw mode again over the same ones. The screen is
  /// cleared: the caller draws every row again.
  func resume() {
    // Read before the lock: tcgetattr is a call on the terminal like any other.
    var modes = termios()
    let current = tcgetattr(fileDescriptor, &modes) == 0 ? modes : nil
    make(waiting: true) { state in
      switch state.mode {
      case .suspended:
        if let current { state.original = current }
        return enter(&state)
      case .fullScreen:
        return enter(&state)
      case .asFound, .restored:
        return []
      }
    }
  }

  /// Leaves full-screen mode for good: shows the cursor, leaves the alternate screen and restores
  /// the modes found at open. Does nothing when not in full-screen mode.
  func restore() {
    make(waiting: true) { state in
      let changes = state.mode == .fullScreen ? leave(state) : []
      if state.mode != .asFound { state.mode = .restored }
      return changes
    }
  }

  /// Writes `bytes` to the terminal while it is in full-screen mode; dropped otherwise, so a late
  /// redraw cannot land on the user's shell.
  func draw(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    make(waiting: false) { state in state.mode == .fullScreen ? [.write(bytes)] : [] }
  }

  private func enter(_ state: inout State) -> [Change] {
    var raw = state.original
    // No echo, no line editing, no signal keys, 8-bit bytes; read(2) returns each byte as it comes.
    cfmakeraw(&raw)
    state.mode = .fullScreen
    return [.setModes(raw, flush: true), .write(Array("\u{1B}[?1049h\u{1B}[H\u{1B}[2J".utf8))]
  }

  private func leave(_ state: State) -> [Change] {
    [.write(Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)), .setModes(state.original, flush: false)]
  }

  /// Decides under the lock what `decide` returns, queues it, and makes every queued change in
  /// order with the lock released unless another thread is making them; with `waiting`, returns
  /// once this call's changes are made.
  private func make(waiting: Bool, _ decide: (inout State) -> [Change]) {
    let done = waiting ? DispatchSemaphore(value: 0) : nil
    var next = state.withLock { state -> Change? in
      var changes = decide(&state)
      if let done { changes.append(.done(done)) }
      guard let first = changes.first else { return nil }
      let now = state.changes.offer(first)
      for change in changes.dropFirst() { state.changes.enqueue(change) }
      return now
    }
    while let change = next {
      makeChange(change)
      next = state.withLock { $0.changes.next() }
    }
    done?.wait()
  }

  private func makeChange(_ change: Change) {
    switch change {
    case .write(let bytes):
      // A failure means the terminal is gone, and the next read will say so.
      try? writer.write(bytes)
    case .setModes(var modes, let flush):
      _ = tcsetattr(fileDescriptor, flush ? TCSAFLUSH : TCSANOW, &modes)
    case .done(let semaphore):
      semaphore.signal()
    }
  }

  deinit {
    restore()
    close(fileDescriptor)
  }
}
