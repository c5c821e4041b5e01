// Section 1 (a), our own element source: LineReader over a pipe, written by a thread of its own.
import Foundation
import Streams

/// Writes n lines into a pipe from a thread and reads them back with LineReader.
struct LinePipeWorkload: Sendable {
  let pool: ElementPool

  /// The n lines, built before timing.
  func payload(_ n: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(n * 24)
    for index in 0..<n {
      bytes.append(contentsOf: pool[index].utf8)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }

  /// Writes `payload` (n lines) into a pipe and reads it with LineReader.
  func run(_ payload: [UInt8], lines n: Int) async throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw BenchmarkFailure(description: "pipe() failed: errno \(errno)") }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    let writer = Thread {
      payload.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = write(writeEnd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
          if written <= 0 { break }
          offset += written
        }
      }
      close(writeEnd)
    }
    writer.start()
    defer { close(readEnd) }
    var received = 0
    for try await line in LineReader(fileDescriptor: readEnd) where line.text != nil { received += 1 }
    try check("LineReader lines", received, equals: n)
  }
}
