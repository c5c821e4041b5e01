// Where keystroke lines come from for `live` and `publish`: the file `--input` names, followed with
// `--follow`, or standard input when no file is named.
import Streams

extension LineReader {
  /// The reader of the file at `path` (followed as it grows when `follow` is set), or of standard
  /// input when `path` is nil. Throws the error that kept the file from opening; reading itself
  /// starts on the first `next()`.
  static func forInput(path: String?, follow: Bool, maxLineLength: Int) throws(LineInputError) -> LineReader {
    guard let path else { return LineReader(fileDescriptor: 0, maxLineLength: maxLineLength) }
    return try LineReader.open(path: path, follow: follow, maxLineLength: maxLineLength)
  }
}
