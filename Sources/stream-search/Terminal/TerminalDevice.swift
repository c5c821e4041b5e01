// The controlling terminal, opened as /dev/tty as fzf does, so that standard output stays free
// for the selection: raw mode and the alternate screen on the way in, and everything put back
// on the way out, whatever the way out is.
import Foundation
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
final class TerminalDevice: Sendable {
  /// Where the terminal is: as found, full screen, handed back during a stop, or put back for good.
  private enum Mode {
    case asFound
    case fullScreen
    case suspended
    case restored
  }

  private struct State {
    var mode = Mode.asFound
    /// The modes to put back: those found at open, or at the latest continue.
    var original: termios
  }

  /// The descriptor of `/dev/tty`, open for reading and writing.
  let fileDescriptor: Int32
  private let writer: OutputWriter
  /// The mode and the modes to put back; also serialises writes, so that no frame lands on the
  /// shell's screen after the terminal was handed back.
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
    state.withLock { state in
      guard state.mode == .asFound else { return }
      enter(&state)
    }
  }

  /// Hands the terminal back for a stop: as ``restore()``, but ``resume()`` can come back.
  func suspend() {
    state.withLock { state in
      guard state.mode == .fullScreen else { return }
      leave(&state)
      state.mode = .suspended
    }
  }

  /// The process continued: raw mode and the alternate screen again, whatever the shell did with
  /// the terminal meanwhile. The modes to put back are read anew after a ``suspend()`` (the shell
  /// may have changed them); a continue without one (a SIGSTOP the tool never saw, after which
  /// shells put their own modes back) sets raw mode again over the same ones. The screen is
  /// cleared: the caller draws every row again.
  func resume() {
    state.withLock { state in
      switch state.mode {
      case .suspended:
        var modes = termios()
        if tcgetattr(fileDescriptor, &modes) == 0 { state.original = modes }
        enter(&state)
      case .fullScreen:
        enter(&state)
      case .asFound, .restored:
        return
      }
    }
  }

  /// Leaves full-screen mode for good: shows the cursor, leaves the alternate screen and restores
  /// the modes found at open. Does nothing when not in full-screen mode.
  func restore() {
    state.withLock { state in
      if state.mode == .fullScreen { leave(&state) }
      if state.mode != .asFound { state.mode = .restored }
    }
  }

  /// Writes `bytes` to the terminal while it is in full-screen mode; dropped otherwise, so a late
  /// redraw cannot land on the user's shell.
  func draw(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    state.withLock { state in
      if state.mode == .fullScreen { writeAll(bytes) }
    }
  }

  private func enter(_ state: inout State) {
    var raw = state.original
    // No echo, no line editing, no signal keys, 8-bit bytes; read(2) returns each byte as it comes.
    cfmakeraw(&raw)
    _ = tcsetattr(fileDescriptor, TCSAFLUSH, &raw)
    state.mode = .fullScreen
    writeAll(Array("\u{1B}[?1049h\u{1B}[H\u{1B}[2J".utf8))
  }

  private func leave(_ state: inout State) {
    writeAll(Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8))
    var modes = state.original
    _ = tcsetattr(fileDescriptor, TCSANOW, &modes)
  }

  /// Writes every byte; a failure means the terminal is gone, and the next read will say so.
  private func writeAll(_ bytes: [UInt8]) {
    try? writer.write(bytes)
  }

  deinit {
    restore()
    close(fileDescriptor)
  }
}
