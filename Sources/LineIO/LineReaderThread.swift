import Synchronization

// The body of a `LineReader`'s dedicated thread: poll the input and the cancellation signal,
// read 64 KiB at a time, split, make each line into the consumer's element (an `InputLine`, or
// a record parsed straight from the line's bytes), and send them in batches through the bounded
// channel. Blocking here never occupies a thread of Swift's cooperative pool.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a `LineReader` reads from.
enum LineSource: Sendable {
  /// A descriptor the caller owns and closes (e.g. standard input).
  case descriptor(Int32)
  /// A path opened by `LineReader.open`; the descriptor opened there goes to the first reader
  /// thread, later iterations open the path again.
  case path(String, opened: OpenedDescriptor, follow: Bool)
}

/// A descriptor opened ahead of reading, closed here unless a reader thread took it over.
final class OpenedDescriptor: Sendable {
  private let descriptor: Mutex<Int32?>

  init(_ descriptor: Int32) { self.descriptor = Mutex(descriptor) }

  /// The descriptor, once; the caller then owns it.
  func take() -> Int32? {
    descriptor.withLock { value in
      defer { value = nil }
      return value
    }
  }

  deinit {
    if let descriptor = descriptor.withLock({ $0 }) { FileDescriptorIO.closeDescriptor(descriptor) }
  }
}

struct LineReaderThread<Element: Sendable>: Sendable {
  let source: LineSource
  let maxLineLength: Int
  /// The most lines sent in one batch: with the channel's capacity, what bounds the lines in
  /// flight between the threads.
  let batchLimit: Int
  let channel: LineBatchChannel<Element>
  /// Appends what the consumer receives for a line, its bytes lent for the call, to the batch;
  /// runs on this thread, so that the consumer's thread does not do it. It appends, rather than
  /// returning the element, so that the append is compiled where `Element` is known: generic
  /// code across modules runs unspecialised, copying through value witnesses on every line.
  let appendElement: @Sendable (LineBytes, inout [Element]) -> Void

  /// Reads until the end of the input, a failure, or cancellation; then closes what it opened.
  func run() {
    defer { channel.probe.readerDidStop() }
    var current: Int32
    let owned: Bool
    switch source {
    case .descriptor(let descriptor):
      (current, owned) = (descriptor, false)
    case .path(let path, let opened, _):
      if let descriptor = opened.take() {
        current = descriptor
      } else {
        do { current = try FileDescriptorIO.openForReading(path: path, nonBlocking: true) } catch {
          return channel.finish(error)
        }
      }
      owned = true
    }
    defer { if owned { FileDescriptorIO.closeDescriptor(current) } }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileDescriptorIO.chunkSize, alignment: 1)
    defer { buffer.deallocate() }
    var splitter = LineSplitter(maxLineLength: maxLineLength)
    var lines: [Element] = []
    var linesSplit = 0

    var polled = [
      pollfd(fd: current, events: Int16(POLLIN), revents: 0),
      pollfd(fd: channel.cancellationSignal.readEnd, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      polled[0].revents = 0
      polled[1].revents = 0
      if poll(&polled, 2, -1) < 0 {
        if errno == EINTR { continue }
        return channel.finish(.readFailed(errno: errno))
      }
      if polled[1].revents != 0 { return }  // Cancelled: nobody listens any more.
      if polled[0].revents == 0 { continue }
      if polled[0].revents & Int16(POLLNVAL) != 0 { return channel.finish(.readFailed(errno: EBADF)) }
      do throws(LineInputError) {
        // Non-blocking descriptors may still say "nothing yet" after poll: poll again.
        guard let count = try FileDescriptorIO.readChunk(current, into: buffer) else { continue }
        if count > 0 {
          split(UnsafeRawBufferPointer(rebasing: buffer[..<count]), with: &splitter, into: &lines)
          linesSplit += lines.count
          guard deliver(&lines, linesSplit: linesSplit) else { return }
          continue
        }
        // End of file: the last writer closed a FIFO, or a file ended.
        _ = splitter.finish { appendElement($0, &lines) }
        linesSplit += lines.count
        guard deliver(&lines, linesSplit: linesSplit) else { return }
        guard case .path(let path, _, follow: true) = source, FileDescriptorIO.isFIFO(current) else {
          return channel.finish(nil)
        }
        // Follow: open again before closing, so the FIFO never lacks a reader and a writer that
        // opens meanwhile neither blocks nor gets EPIPE.
        let next = try FileDescriptorIO.openForReading(path: path, nonBlocking: true)
        FileDescriptorIO.closeDescriptor(current)
        current = next
        polled[0].fd = next
      } catch {
        return channel.finish(error)
      }
    }
  }

  /// Appends every line that `bytes` completes to `lines`, as elements.
  private func split(_ bytes: UnsafeRawBufferPointer, with splitter: inout LineSplitter, into lines: inout [Element]) {
    var start = 0
    while start < bytes.count {
      var consumed = 0
      _ = splitter.nextLine(in: UnsafeRawBufferPointer(rebasing: bytes[start...]), consumed: &consumed) {
        appendElement($0, &lines)
      }
      start += consumed
    }
  }

  /// Sends `lines` in batches of at most `batchLimit` and empties it; false if cancelled.
  private func deliver(_ lines: inout [Element], linesSplit: Int) -> Bool {
    defer { lines = [] }
    if lines.count <= batchLimit {
      return lines.isEmpty || channel.send(lines, linesSplit: linesSplit)
    }
    var start = 0
    while start < lines.count {
      let end = min(start + batchLimit, lines.count)
      guard channel.send(Array(lines[start..<end]), linesSplit: linesSplit) else { return false }
      start = end
    }
    return true
  }
}
