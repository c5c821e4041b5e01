// Why a write to a file descriptor stopped short: the reader went away, the system refused, or
// a stop was requested.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why ``FileDescriptorWriter/write(_:)`` did not write every byte.
package enum OutputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reader went away (EPIPE). For a tool's standard output this is a normal end (as
  /// `tool | head` must end quietly), not a failure.
  case closed
  /// Any other write(2) or poll(2) failure, with its `errno`.
  case failed(errno: Int32)
  /// The stop was signalled while the descriptor could take nothing more; the rest is not written.
  case stopped

  /// A short explanation, e.g. `output closed` or `No space left on device`.
  package var description: String {
    switch self {
    case .closed: "output closed"
    case .failed(let code): String(cString: strerror(code))
    case .stopped: "stopped while the output was full"
    }
  }
}
