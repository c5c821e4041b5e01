// A `LineReader` iterated from a thread that may block, as the thread that drives a virtual-time
// replay: the same reader thread, splitting rules and bounded channel as the async iteration, so
// reading and making each line into a record happen on the reader's thread, not the consumer's.

extension LineReader {
  /// The most elements handed over at once to a blocking consumer, and how many such batches may
  /// wait: a few thousand small records, so the consumer takes a lock once per batch.
  static let blockingBatchLimit = 512
  static let blockingChannelCapacity = 4

  /// Starts the reader thread of one iteration, which appends each line's element to its batch
  /// with `appendElement` (on that thread), for a consumer that blocks in
  /// ``BlockingBatches/next(beforeWaiting:)``.
  ///
  /// `appendElement` appends rather than returns the element so that the append is compiled
  /// where `Element` is known: generic code across modules runs unspecialised.
  ///
  /// - Throws: ``LineInputError/readFailed(errno:)`` if the thread's cancellation pipe cannot be
  ///   made.
  package func makeBlockingBatches<Element: Sendable>(
    appendElement: @escaping @Sendable (_ line: LineBytes, _ batch: inout [Element]) -> Void
  ) throws(LineInputError) -> BlockingBatches<Element> {
    BlockingBatches(
      channel: try startThread(
        batchLimit: Self.blockingBatchLimit, capacity: Self.blockingChannelCapacity, appendElement: appendElement))
  }

  /// The batches of one iteration, for a thread that may block; dropping it, or calling
  /// ``cancel``, stops the reader thread.
  ///
  /// It hands out whole batches, not elements, so that the consumer indexes them in its own
  /// module, specialised for its element type; across modules, a generic iterator would copy
  /// every element through value witnesses.
  ///
  /// - **Element:** a non-empty batch of what `appendElement` made of each line, in order, bad
  ///   lines included.
  /// - **Finish:** `next` returns nil at the end of the input, and after.
  /// - **Failure:** `next` throws the ``LineInputError`` that ended reading, after the batches
  ///   read before it.
  /// - **Cancellation:** ``cancel`` (from any thread) ends the iteration: a `next` blocked on a
  ///   stalled input returns nil at once, and the reader thread stops.
  package struct BlockingBatches<Element: Sendable>: ~Copyable {
    private let channel: LineBatchChannel<Element>

    init(channel: LineBatchChannel<Element>) { self.channel = channel }

    /// Ends the iteration from any thread; see the type's Cancellation.
    package var cancel: @Sendable () -> Void { { [channel] in channel.cancel() } }

    /// The next batch, blocking until the reader thread sends one (the only synchronisation
    /// with it). When none is ready, `beforeWaiting` runs before the wait.
    ///
    /// - Throws: the ``LineInputError`` that ended reading, once the batches before it are taken.
    package func next(beforeWaiting: () -> Void = {}) throws(LineInputError) -> [Element]? {
      while true {
        guard let batch = try channel.receiveBlocking(beforeWaiting: beforeWaiting).get() else { return nil }
        if !batch.isEmpty { return batch }
      }
    }

    deinit { channel.cancel() }
  }
}
