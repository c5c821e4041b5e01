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
/// ``restore()`` is idempotent and safe from any thread, so every exit path can call it.
final class TerminalDevice: Sendable {
  /// The descriptor of `/dev/tty`, open for reading and writing.
  let fileDescriptor: Int32
  private let writer: OutputWriter
  private let original: termios
  /// Whether the terminal is in full-screen mode now; also serialises writes.
  private let isFullScreen = Mutex(false)

  private init(fileDescriptor: Int32, original: termios) {
    self.fileDescriptor = fileDescriptor
    writer = OutputWriter(fileDescriptor: fileDescriptor)
    self.original = original
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
    isFullScreen.withLock { isFullScreen in
      var raw = original
      // No echo, no line editing, no signal keys, 8-bit bytes; read(2) returns each byte as it comes.
      cfmakeraw(&raw)
      _ = tcsetattr(fileDescriptor, TCSAFLUSH, &raw)
      isFullScreen = true
      writeAll(Array("\u{1B}[?1049h\u{1B}[H\u{1B}[2J".utf8))
    }
  }

  /// Leaves full-screen mode: shows the cursor, leaves the alternate screen and restores the modes
  /// found at open. Does nothing when not in full-screen mode.
  func restore() {
    isFullScreen.withLock { isFullScreen in
      guard isFullScreen else { return }
      isFullScreen = false
      writeAll(Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8))
      var modes = original
      _ = tcsetattr(fileDescriptor, TCSANOW, &modes)
    }
  }

  /// Writes `bytes` to the terminal while it is in full-screen mode; dropped after ``restore()``,
  /// so a late redraw cannot land on the user's shell.
  func draw(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    isFullScreen.withLock { isFullScreen in
      if isFullScreen { writeAll(bytes) }
    }
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
