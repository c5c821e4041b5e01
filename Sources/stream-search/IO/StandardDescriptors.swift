// Whether descriptors 0, 1 and 2 were open when the process started. A closed one leaves its
// number free, and the next descriptor anyone opens (libdispatch's epoll instance, a pipe, the
// log file, a catalog) would be handed it: read as keystrokes, written to as the events' output,
// or given the diagnostics. So each is checked first thing, and a closed one is filled.
import Foundation

/// The standard descriptors as found at start, checked before anything can open a descriptor.
struct StandardDescriptors: Sendable {
  /// Descriptor 0 was closed (`<&-`): a run that reads standard input refuses to start.
  let inputWasClosed: Bool
  /// Descriptor 1 was closed (`>&-`): every command refuses to start, as its output has nowhere
  /// to go.
  let outputWasClosed: Bool
  /// Descriptor 2 was closed (`2>&-`): the run goes on, its diagnostics going to /dev/null.
  let errorWasClosed: Bool

  /// Checks descriptors 0, 1 and 2, in that order, and opens `/dev/null` in the place of each
  /// closed one, so that no later open(2), pipe(2) or epoll_create(2) is handed it.
  ///
  /// Call it first thing in `main`, before any use of Dispatch or Foundation that may open a
  /// descriptor.
  static func reserveClosed() -> StandardDescriptors {
    StandardDescriptors(
      inputWasClosed: reserveIfClosed(STDIN_FILENO, mode: O_RDONLY),
      outputWasClosed: reserveIfClosed(STDOUT_FILENO, mode: O_WRONLY),
      errorWasClosed: reserveIfClosed(STDERR_FILENO, mode: O_WRONLY))
  }

  /// Whether `descriptor` is closed; if it is, `/dev/null` is opened on it. Failing to fill it
  /// is harmless for 0 and 1, which the run then refuses to use, and leaves 2 as it was.
  private static func reserveIfClosed(_ descriptor: Int32, mode: Int32) -> Bool {
    guard fcntl(descriptor, F_GETFD) < 0, errno == EBADF else { return false }
    // open(2) returns the lowest free descriptor, which is this one when the lower ones are
    // open (they were checked first); moved there should one below have been taken meanwhile.
    let opened = open("/dev/null", mode)
    if opened >= 0, opened != descriptor {
      _ = dup2(opened, descriptor)
      close(opened)
    }
    return true
  }

  /// The one line to report when a run must read a closed standard input.
  static let closedInputMessage = "standard input is closed; pipe keystrokes in, or give --input PATH"

  /// The one line to report when standard output is closed.
  static let closedOutputMessage = "standard output is closed; send it somewhere, e.g. >/dev/null"
}
