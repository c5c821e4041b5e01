// The one write(2) loop of the benchmark, shared by every writer that fills a pipe: the recording
// fed to the binary's standard input and the payloads fed to LineReader.
import Foundation

/// Writes all of `bytes` to `descriptor`, continuing after partial writes and retrying after a
/// signal (EINTR); stops early and returns false when the reader went away (or any other error).
@discardableResult
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
      if written < 0, errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }
}
