// Synchronous line input, for a thread that may block: virtual-time replay reads its input on
// the thread that drives the runner, where suspending is not an option.

/// Reads numbered lines from a file descriptor with blocking `read(2)` calls.
///
/// Useful when the calling thread is allowed to block, e.g. the thread that drives a
/// `VirtualTimeRunner` (Streams) while replaying a recorded input file:
///
/// ```swift
/// let path = FileManager.default.temporaryDirectory.appendingPathComponent("keystrokes-\(UUID()).txt").path
/// try "t\nta\ntay\n".write(toFile: path, atomically: true, encoding: .utf8)
/// let runner = VirtualTimeRunner()
/// let clock = runner.clock
/// let (keystrokes, typing) = AsyncStream.makeStream(of: String.self)
/// let searched = runner.start {
///   var terms: [String] = []
///   for try await term in keystrokes.debounce(for: .milliseconds(300), clock: clock) { terms.append(term) }
///   return terms
/// }
/// var reader = try BlockingLineReader.open(path: path)
/// while let line = try reader.next() {     // blocks this thread, the one that drives the runner
///   typing.yield(line.text ?? "")
///   runner.advance(by: .milliseconds(100)) // one keystroke every 100 ms of virtual time
/// }
/// typing.finish()
/// let terms = try runner.finish(searched)  // terms == ["tay"], searched when the input ended
/// ```
///
/// It reads 64 KiB at a time and splits them by the rules ``InputLine`` states, so lines, bad lines
/// and the maximum length behave exactly as in ``LineReader``. The reader is non-copyable because it owns
/// its read position and, when it opened the file, the descriptor, which it closes at the end of
/// the input or when it is dropped.
public struct BlockingLineReader: ~Copyable {
  private let descriptor: Int32
  /// Whether this reader opened `descriptor` and so must close it.
  private var ownsDescriptor: Bool
  private var splitter: LineSplitter
  private var atEnd = false
  private let buffer: UnsafeMutableRawBufferPointer
  /// Where the bytes of `buffer` not yet split begin and end.
  private var unsplit = 0..<0
  /// When given, every wait for input also waits on it, and ends with `.stopped` when it fires.
  private let stop: CancellationSignal?

  /// Creates a reader of a descriptor the caller owns (e.g. `STDIN_FILENO`); the reader never
  /// closes it. Lines longer than `maxLineLength` bytes (default
  /// ``InputLine/defaultMaxLength``, 1 MiB) are reported as too long.
  /// With `stop`, a wait for input ends with ``LineInputError/stopped`` once it is signalled.
  public init(
    fileDescriptor: Int32, maxLineLength: Int = InputLine.defaultMaxLength,
    stoppingOn stop: CancellationSignal? = nil
  ) {
    self.init(descriptor: fileDescriptor, owned: false, maxLineLength: maxLineLength, stop: stop)
  }

  private init(descriptor: Int32, owned: Bool, maxLineLength: Int, stop: CancellationSignal?) {
    self.descriptor = descriptor
    self.ownsDescriptor = owned
    self.splitter = LineSplitter(maxLineLength: maxLineLength)
    self.buffer = .allocate(byteCount: FileDescriptorIO.chunkSize, alignment: 1)
    self.stop = stop
  }

  /// Opens `path` for reading (a regular file, a FIFO, a device) and returns a reader that closes
  /// it at the end. Without `stop`, opening a FIFO blocks until a writer opens it, as `open(2)`
  /// does. With `stop`, the file is opened without blocking and the first read waits for a
  /// writer instead, so that signalling `stop` ends that wait too.
  ///
  /// - Throws: ``LineInputError/cannotOpen(path:errno:)`` if `open(2)` fails, or with `EISDIR` for a
  ///   directory.
  public static func open(
    path: String, maxLineLength: Int = InputLine.defaultMaxLength, stoppingOn stop: CancellationSignal? = nil
  ) throws(LineInputError) -> BlockingLineReader {
    let descriptor = try FileDescriptorIO.openForReading(path: path, nonBlocking: stop != nil)
    return BlockingLineReader(descriptor: descriptor, owned: true, maxLineLength: maxLineLength, stop: stop)
  }

  /// The next line, blocking until it is complete; nil at the end of the input, and after.
  ///
  /// A last line without a newline is delivered at the end of the input. Bad lines are
  /// delivered as elements (see ``InputLine/Content``).
  ///
  /// - Throws: ``LineInputError/readFailed(errno:)`` if `read(2)` fails (EINTR is retried). The
  ///   lines read before the failure have been delivered; calling again retries the read.
  ///   ``LineInputError/stopped`` when the reader's `stop` signal fired while it waited.
  public mutating func next() throws(LineInputError) -> InputLine? {
    var line: InputLine?
    guard try next({ line = $0.inputLine }) else { return nil }
    return line
  }

  /// Reads the next line with `read`, which gets its bytes for the duration of the call: for a
  /// caller that parses lines straight from their bytes, without a `String` per line. False at
  /// the end of the input, and after; otherwise the same as ``next()``.
  package mutating func next(_ read: (LineBytes) -> Void) throws(LineInputError) -> Bool {
    while true {
      if !unsplit.isEmpty {
        var consumed = 0
        let found = splitter.nextLine(
          in: UnsafeRawBufferPointer(rebasing: buffer[unsplit]), consumed: &consumed, read)
        unsplit = unsplit.lowerBound + consumed..<unsplit.upperBound
        if found { return true }
        continue
      }
      if atEnd { return false }
      // Wait in poll(2) rather than in read(2), so that a stop request ends the wait.
      if let stop {
        // A regular file is always readable, so poll alone would never see the stop.
        if stop.isSignalled { throw .stopped }
        try FileDescriptorIO.waitUntilReadable(descriptor, or: stop)
      }
      guard let count = try FileDescriptorIO.readChunk(descriptor, into: buffer) else {
        // A non-blocking descriptor has nothing yet: wait instead of spinning.
        if stop == nil { try FileDescriptorIO.waitUntilReadable(descriptor) }
        continue
      }
      if count == 0 {
        atEnd = true
        closeIfOwned()
        return splitter.finish(read)
      }
      unsplit = 0..<count
    }
  }

  private mutating func closeIfOwned() {
    if ownsDescriptor {
      FileDescriptorIO.closeDescriptor(descriptor)
      ownsDescriptor = false
    }
  }

  deinit {
    if ownsDescriptor { FileDescriptorIO.closeDescriptor(descriptor) }
    buffer.deallocate()
  }
}
