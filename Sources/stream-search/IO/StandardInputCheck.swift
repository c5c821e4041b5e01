// Whether descriptor 0 was open when the process started. A closed stdin (`stream-search <&-`)
// leaves 0 free, and the next descriptor anyone opens (libdispatch's epoll instance, a catalog
// file) would take it and be read as keystrokes. So it is checked first, and 0 is filled.
import Foundation

/// The state of standard input at start, checked before anything can open a descriptor.
enum StandardInputCheck {
  /// Whether descriptor 0 is closed; if it is, `/dev/null` is opened in its place, so that no
  /// later `open` or `epoll_create` is handed descriptor 0 and mistaken for the input.
  ///
  /// Call it first thing in `main`, before any use of Dispatch or Foundation that may open a
  /// descriptor.
  static func reserveIfClosed() -> Bool {
    var status = stat()
    guard fstat(STDIN_FILENO, &status) != 0, errno == EBADF else { return false }
    // open(2) returns the lowest free descriptor: 0 here. Failing to fill it is harmless, as
    // the run then refuses to read standard input anyway.
    _ = open("/dev/null", O_RDONLY)
    return true
  }

  /// The one line to report when a run must read a closed standard input.
  static let closedMessage = "standard input is closed; pipe keystrokes in, or give --input PATH"
}
