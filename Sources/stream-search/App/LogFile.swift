// `--log PATH`: diagnostics appended to a file instead of standard error, which the interactive
// screen occupies.
import Foundation

/// Why the log file cannot be used.
struct LogFileError: Error, Sendable {
  /// One line: the path and the reason.
  let message: String
}

extension Log {
  /// A log at the level the options ask for, appending to the file at `path` (created if need
  /// be), or writing to standard error when `path` is nil. The file stays open for the run.
  ///
  /// - Throws: ``LogFileError`` when the file cannot be opened for appending.
  init(options: CommandLineOptions, path: String?) throws(LogFileError) {
    guard let path else {
      self.init(options: options)
      return
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw LogFileError(message: "cannot open the log '\(path)': \(String(cString: strerror(errno)))")
    }
    self.init(options: options, writer: OutputWriter(fileDescriptor: descriptor))
  }
}
