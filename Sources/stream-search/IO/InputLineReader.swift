// Where keystroke lines come from for `live`, `record` and `publish`: the file `--input` names,
// followed with `--follow`, or standard input when no file is named; and how a failure to read
// them is told, naming the input.
import Foundation
import LineIO
import Streams

extension LineReader {
  /// The reader of the file at `path` (followed as it grows when `follow` is set), or of standard
  /// input when `path` is nil. Throws the error that kept the file from opening (a directory
  /// among them); reading itself starts on the first `next()`.
  static func forInput(
    path: String?, follow: Bool, maxLineLength: Int = InputLine.defaultMaxLength
  ) throws(LineInputError) -> LineReader {
    guard let path else { return LineReader(fileDescriptor: 0, maxLineLength: maxLineLength) }
    return try LineReader.open(path: path, follow: follow, maxLineLength: maxLineLength)
  }
}

extension LineInputError {
  /// One line for `Error:` that names the input: the file, or standard input, and why, e.g.
  /// `cannot read 'keys.fifo': Input/output error`.
  func message(inputPath path: String?) -> String {
    switch self {
    case .readFailed(let code):
      let input = path.map { "'\($0)'" } ?? "standard input"
      return "cannot read \(input): \(String(cString: strerror(code)))"
    case .cannotOpen, .stopped:
      return description
    }
  }
}
