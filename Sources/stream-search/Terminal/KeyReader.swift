// Reads key presses from the terminal on a thread of its own (FileHandle.bytes does not exist on
// Linux) and hands each read's keys to the screen. Also watches standard output, when it is a
// pipe, so that the screen ends as soon as the reader of the selection goes away.
import Foundation
import Synchronization

/// What the key reader reports.
enum KeyReaderEvent: Sendable {
  /// The keys of one read (or of a settled Esc).
  case keys([Key])
  /// The terminal hung up or cannot be read any more.
  case terminalGone
  /// The watched output's reader went away (its pipe reports an error or hang-up).
  case outputClosed
}

/// A thread that waits in poll(2) for terminal input, a watched descriptor's hang-up, or a stop.
///
/// - Element: each read's bytes are decoded and delivered as one ``KeyReaderEvent/keys(_:)``.
/// - Finish: after ``KeyReaderEvent/terminalGone`` or ``KeyReaderEvent/outputClosed`` the thread
///   ends; ``stop()`` ends it too (it is woken through a pipe): a delivery already running
///   completes, and none starts after.
/// - Esc: a read that ends with a lone ESC byte waits at most ``escapeDelayMilliseconds`` for the
///   rest of an escape sequence, then delivers ``Key/escape``; that wait is a poll(2) timeout on
///   the terminal, the only time-bound wait, as curses' ESCDELAY.
final class KeyReader: Sendable {
  /// How long a lone ESC waits for the rest of a sequence; terminals send sequences in one write.
  static let escapeDelayMilliseconds: Int32 = 50

  private let terminal: Int32
  private let watched: Int32?
  private let wake: (read: Int32, write: Int32)
  private let stopped = Mutex(false)

  /// A reader of `terminal`, also watching `watched` for hang-up; call ``start(_:)``.
  init?(terminal: Int32, watching watched: Int32?) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    self.terminal = terminal
    self.watched = watched
    wake = (ends[0], ends[1])
  }

  /// Starts the thread; `deliver` is called on it for every event.
  func start(_ deliver: @escaping @Sendable (KeyReaderEvent) -> Void) {
    let thread = Thread { [self] in run(deliver) }
    thread.name = "stream-search.keys"
    thread.start()
  }

  /// Asks the thread to end and stop delivering.
  func stop() {
    let first = stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
    if first {
      var byte: UInt8 = 0
      _ = write(wake.write, &byte, 1)
    }
  }

  private var isStopped: Bool { stopped.withLock { $0 } }

  private func run(_ deliver: @Sendable (KeyReaderEvent) -> Void) {
    var decoder = KeyDecoder()
    var buffer = [UInt8](repeating: 0, count: 4096)
    var descriptors = [
      pollfd(fd: terminal, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
    ]
    if let watched { descriptors.append(pollfd(fd: watched, events: 0, revents: 0)) }
    while !isStopped {
      let timeout = decoder.isPending ? Self.escapeDelayMilliseconds : -1
      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
      if ready < 0 {
        if errno == EINTR { continue }
        deliver(.terminalGone)
        return
      }
      if isStopped { return }
      if ready == 0 {
        let keys = decoder.flushPending()
        if !keys.isEmpty { deliver(.keys(keys)) }
        continue
      }
      if descriptors.count > 2, descriptors[2].revents & Int16(POLLERR | POLLHUP) != 0 {
        deliver(.outputClosed)
        return
      }
      guard descriptors[0].revents != 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { read(terminal, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      guard count > 0 else {
        deliver(.terminalGone)
        return
      }
      let keys = decoder.decode(buffer[0..<count])
      if !keys.isEmpty { deliver(.keys(keys)) }
    }
  }

  deinit {
    close(wake.read)
    close(wake.write)
  }
}
