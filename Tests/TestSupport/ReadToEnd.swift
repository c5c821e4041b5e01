// Reading what a pipe carried, for tests that write to one end and check the other.
import Foundation

/// Reads `descriptor` until end of file (or an error other than EINTR) and returns every byte.
/// Blocks: call it on a thread of its own (not a task) while the test writes.
public func readToEnd(_ descriptor: Int32) -> [UInt8] {
  var result: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count > 0 {
      result += buffer[0..<count]
    } else if count == 0 || errno != EINTR {
      return result
    }
  }
}
