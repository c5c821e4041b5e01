// Live line input as an AsyncSequence: standard input, a file or a FIFO, read on a dedicated
// thread so that blocking reads never hold a thread of Swift's cooperative pool.
import Foundation

/// The numbered lines of a file descriptor, a file or a FIFO, as an `AsyncSequence`.
///
/// Useful for live input, e.g. keystrokes piped into the program:
///
/// ```swift
/// var ends: [Int32] = [-1, -1]
/// _ = pipe(&ends)                          // ends[0] stands in for STDIN_FILENO
/// let typed: [UInt8] = Array("tay\n".utf8) + [0xFF, 0x0A] + Array("taylor".utf8)
/// _ = typed.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
/// close(ends[1])                           // the writer is done: the reader finishes after "taylor"
/// var texts: [String] = [], badLines: [Int] = []
/// for try await line in LineReader(fileDescriptor: ends[0]) {
///   switch line.content {
///   case .text(let text): texts.append(text)
///   case .invalidUTF8, .tooLong: badLines.append(line.number)
///   }
/// }
/// close(ends[0])
/// // texts == ["tay", "taylor"], badLines == [2]: a bad line is reported and reading goes on
/// ```
///
/// Each iteration starts one dedicated `Thread` that waits with `poll(2)` and reads 64 KiB at a
/// time; lines cross to the async side in batches of at most 256, through a channel holding at
/// most 2 batches. A slow consumer therefore blocks the reader thread instead of letting lines
/// pile up: memory stays flat on a 10-million-line pipe. The iterator takes one lock per batch,
/// not per line.
///
/// - **Element:** an ``InputLine``; bad lines (not UTF-8, too long) are elements too, numbered,
///   and reading goes on after them. See ``InputLine`` for the exact splitting rules.
/// - **Finish:** at the end of the input, after a last line without a newline if there is one.
///   In follow mode a FIFO never finishes; only cancellation ends it.
/// - **Failure:** ``LineInputError/readFailed(errno:)`` when `read(2)` or `poll(2)` fails, or
///   ``LineInputError/cannotOpen(path:errno:)`` when a path cannot be opened again; the lines
///   read before are delivered first, and the sequence ends after the error.
/// - **Cancellation:** cancelling the consuming task, or dropping the iterator, ends the sequence
///   (`next()` returns nil) and stops the reader thread at once, even while it waits for a pipe
///   that never writes. Lines already read but not consumed are dropped.
///
/// > Important: iterate a reader once at a time. Two iterations of the same descriptor would
/// > compete for its bytes; a reader made by ``open(path:follow:maxLineLength:)`` opens the
/// > path again for each iteration after the first.
public struct LineReader: AsyncSequence, Sendable {
  /// The lines read, bad ones included.
  public typealias Element = InputLine
  /// The only error reading can throw.
  public typealias Failure = LineInputError

  /// The most lines handed over at once, and how many such batches may wait.
  static let batchLimit = 256
  static let channelCapacity = 2

  private let source: LineSource
  private let maxLineLength: Int
  private let probe: LineReaderProbe

  /// Creates a reader of a descriptor the caller owns (e.g. `STDIN_FILENO`); it is never
  /// closed here. Lines longer than `maxLineLength` bytes (default
  /// ``InputLine/defaultMaxLength``, 1 MiB) are reported as too long.
  /// The descriptor's flags are left alone, blocking or not.
  public init(fileDescriptor: Int32, maxLineLength: Int = InputLine.defaultMaxLength) {
    self.init(source: .descriptor(fileDescriptor), maxLineLength: maxLineLength, probe: LineReaderProbe())
  }

  /// A reader of a descriptor the caller owns, with hooks for tests.
  package init(fileDescriptor: Int32, maxLineLength: Int = InputLine.defaultMaxLength, probe: LineReaderProbe) {
    self.init(source: .descriptor(fileDescriptor), maxLineLength: maxLineLength, probe: probe)
  }

  private init(source: LineSource, maxLineLength: Int, probe: LineReaderProbe) {
    self.source = source
    self.maxLineLength = maxLineLength
    self.probe = probe
  }

  /// Opens `path` (a regular file, a FIFO, a device) and returns a reader of it that closes it
  /// when reading ends.
  ///
  /// The file is opened at once, without blocking even for a FIFO that has no writer yet (it is
  /// opened non-blocking; the reader thread then waits for data with `poll(2)`), so a missing or
  /// unreadable file is reported here.
  ///
  /// With `follow`, a FIFO is reopened whenever its last writer closes, and reading goes on
  /// with the next writer until the consumer cancels. A last line without a newline is complete
  /// when the FIFO has no writer left, and numbering continues across writers. The new
  /// descriptor is opened before the old one is closed, so a writer arriving meanwhile neither
  /// blocks nor loses data. `follow` changes nothing for other
  /// files, which end at their end.
  ///
  /// - Throws: ``LineInputError/cannotOpen(path:errno:)`` if `open(2)` fails, or with `EISDIR` for a
  ///   directory.
  public static func open(
    path: String, follow: Bool = false, maxLineLength: Int = InputLine.defaultMaxLength
  ) throws(LineInputError) -> LineReader {
    try open(path: path, follow: follow, maxLineLength: maxLineLength, probe: LineReaderProbe())
  }

  /// Opens `path` like ``open(path:follow:maxLineLength:)``, with hooks for tests.
  package static func open(
    path: String, follow: Bool = false, maxLineLength: Int = InputLine.defaultMaxLength, probe: LineReaderProbe
  ) throws(LineInputError) -> LineReader {
    let descriptor = try FileDescriptorIO.openForReading(path: path, nonBlocking: true)
    let source = LineSource.path(path, opened: OpenedDescriptor(descriptor), follow: follow)
    return LineReader(source: source, maxLineLength: maxLineLength, probe: probe)
  }

  /// Starts the reader thread and returns the iterator that receives its lines.
  public func makeAsyncIterator() -> AsyncIterator {
    do throws(LineInputError) {
      return AsyncIterator(
        channel: try startThread(batchLimit: Self.batchLimit, capacity: Self.channelCapacity) {
          $1.append($0.inputLine)
        })
    } catch {
      return AsyncIterator(failure: error)
    }
  }

  /// Starts one iteration's reader thread, which appends each line's element to a batch with
  /// `appendElement` and sends the batches through a channel of `capacity` batches of at most
  /// `batchLimit`.
  func startThread<Element: Sendable>(
    batchLimit: Int, capacity: Int, appendElement: @escaping @Sendable (LineBytes, inout [Element]) -> Void
  ) throws(LineInputError) -> LineBatchChannel<Element> {
    let signal = try CancellationSignal()
    let channel = LineBatchChannel<Element>(capacity: capacity, probe: probe, cancellationSignal: signal)
    let body = LineReaderThread(
      source: source, maxLineLength: maxLineLength, batchLimit: batchLimit, channel: channel,
      appendElement: appendElement)
    let thread = Thread { body.run() }
    thread.name = "LineReader"
    thread.start()
    return channel
  }

  /// Delivers the lines of one iteration; dropping it stops the reader thread.
  public struct AsyncIterator: AsyncIteratorProtocol {
    /// Cancels the channel when the last copy of the iterator goes away.
    private final class Lifetime: Sendable {
      let channel: LineBatchChannel<InputLine>
      init(_ channel: LineBatchChannel<InputLine>) { self.channel = channel }
      deinit { channel.cancel() }
    }

    private let lifetime: Lifetime?
    @usableFromInline var batch: [InputLine] = []
    @usableFromInline var index = 0
    private var pendingFailure: LineInputError?

    init(channel: LineBatchChannel<InputLine>) { lifetime = Lifetime(channel) }

    /// An iterator that fails at once: the reader could not be started.
    init(failure: LineInputError) {
      lifetime = nil
      pendingFailure = failure
    }

    /// The next line; nil at the end, after a failure, or once the task is cancelled.
    ///
    /// - Throws: ``LineInputError`` if the input fails; lines read before come first.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(LineInputError) -> InputLine? {
      // Inlinable so that, within a batch, a line costs an index check in the caller's module.
      if index < batch.count {
        defer { index += 1 }
        return batch[index]
      }
      return try await firstOfNextBatch(isolation: actor)
    }

    /// Waits for the next batch (once per batch: the only synchronisation with the reader thread)
    /// and returns its first line.
    @usableFromInline
    mutating func firstOfNextBatch(isolation actor: isolated (any Actor)?) async throws(LineInputError)
      -> InputLine?
    {
      batch = []
      index = 0
      if let failure = pendingFailure {
        pendingFailure = nil
        throw failure
      }
      guard let channel = lifetime?.channel else { return nil }
      if Task.isCancelled {
        // Checked once per batch so that a cancelled consumer stops even on a fast input.
        channel.cancel()
        return nil
      }
      guard let next = try await channel.receive(isolation: actor).get(), let first = next.first else {
        return nil
      }
      batch = next
      index = 1
      return first
    }

    /// The next line; see ``next(isolation:)``.
    public mutating func next() async throws(LineInputError) -> InputLine? {
      try await next(isolation: nil)
    }
  }
}
