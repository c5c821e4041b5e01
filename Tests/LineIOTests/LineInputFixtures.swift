// Real pipes, FIFOs and temporary files for the line input tests, with the few system calls
// they need wrapped so that the tests read as behaviour.
import Foundation
import LineIO
import Testing

/// A temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "/line-input-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Creates a FIFO named `name` in the directory and returns its path.
  func makeFIFO(_ name: String) throws -> String {
    let fifo = path + "/" + name
    try #require(mkfifo(fifo, 0o600) == 0)
    return fifo
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A pipe(2) whose ends the test closes explicitly.
struct TestPipe {
  let readEnd: Int32
  let writeEnd: Int32

  init() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  func closeBoth() {
    close(readEnd)
    close(writeEnd)
  }
}

/// Writes all of `text` to `descriptor`, blocking if needed.
func writeAll(_ text: String, to descriptor: Int32) throws {
  try FileDescriptorWriter(fileDescriptor: descriptor).write(Array(text.utf8))
}

/// Opens `path` for writing, blocking until a reader has it open.
func openForWriting(_ path: String) throws -> Int32 {
  let descriptor = open(path, O_WRONLY)
  try #require(descriptor >= 0)
  return descriptor
}

/// The number of bytes written to a pipe and not read yet.
func unreadByteCount(_ descriptor: Int32) -> Int32 {
  var count: Int32 = 0
  _ = ioctl(descriptor, UInt(FIONREAD), &count)
  return count
}

/// An async signal the reader thread's hooks fire and the test awaits.
final class ReaderHookSignal<Value: Sendable>: Sendable {
  let stream: AsyncStream<Value>
  private let continuation: AsyncStream<Value>.Continuation

  init() { (stream, continuation) = AsyncStream.makeStream(of: Value.self) }

  func fire(_ value: Value) { continuation.yield(value) }

  /// The next value fired (those fired before are buffered).
  func next() async -> Value? {
    var iterator = stream.makeAsyncIterator()
    return await iterator.next()
  }
}
