// The ways reading line input can fail: the file cannot be opened, or a read fails. Bad lines are
// not errors (see `InputLine.Content`).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why line input could not be read.
///
/// Only the file itself failing is an error; a line that is not UTF-8 or is too long is
/// delivered as an ``InputLine`` and reading goes on.
public enum LineInputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `open(2)` failed for `path` with `errno` (e.g. `ENOENT`, `EACCES`), or `path` is a directory
  /// (`EISDIR`), which `open(2)` allows but no read does.
  case cannotOpen(path: String, errno: Int32)
  /// `read(2)` or `poll(2)` failed with `errno` (e.g. `EIO`).
  case readFailed(errno: Int32)
  /// A reader given a ``CancellationSignal`` was stopped by it while waiting for input.
  case stopped

  /// A one-line message naming the file and the system's reason, e.g.
  /// `cannot open 'input.txt': No such file or directory`.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let code):
      "cannot open '\(path)': \(Self.message(for: code))"
    case .readFailed(let code):
      "cannot read input: \(Self.message(for: code))"
    case .stopped:
      "reading input was stopped"
    }
  }

  private static func message(for code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
