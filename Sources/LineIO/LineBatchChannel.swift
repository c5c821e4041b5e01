// The bounded hand-off between a line reader's thread and its consumer (a `LineReader`'s async
// iterator, or a thread that may block, as a replay's): lines travel in batches, at most
// `capacity` batches wait, and a full channel blocks the reader thread, so a slow consumer stops
// the reading instead of letting it pile up lines.
import Dispatch
import Synchronization

/// Hooks that let tests observe the reader thread; production code never sets them.
package struct LineReaderProbe: Sendable {
  /// Called on the reader thread just before it blocks on a full channel, with the number of
  /// lines it has split so far.
  package var readerWillBlock: @Sendable (_ linesSplit: Int) -> Void
  /// Called on the reader thread as it exits, after its descriptors are closed.
  package var readerDidStop: @Sendable () -> Void

  /// Hooks that do nothing unless given.
  package init(
    readerWillBlock: @escaping @Sendable (_ linesSplit: Int) -> Void = { _ in },
    readerDidStop: @escaping @Sendable () -> Void = {}
  ) {
    self.readerWillBlock = readerWillBlock
    self.readerDidStop = readerDidStop
  }
}

/// The lock and the blocking around `LineBatchChannelStateMachine`: takes the lock, asks the
/// state machine, then resumes, signals or blocks after releasing it.
final class LineBatchChannel<Element: Sendable>: Sendable {
  typealias Machine = LineBatchChannelStateMachine<Element>
  typealias Batch = Machine.Batch
  typealias Delivery = Machine.Delivery

  let probe: LineReaderProbe
  private let state: Mutex<Machine>
  /// Wakes the reader thread blocked on a full channel; signalled only when it waits, so its
  /// count is back to zero whenever the channel is deallocated (libdispatch checks).
  private let readerWakeup = DispatchSemaphore(value: 0)
  /// Written once on cancellation, so that a reader thread blocked in `poll(2)` wakes up.
  let cancellationSignal: CancellationSignal

  init(capacity: Int, probe: LineReaderProbe, cancellationSignal: CancellationSignal) {
    self.state = Mutex(Machine(capacity: capacity))
    self.probe = probe
    self.cancellationSignal = cancellationSignal
  }

  // MARK: Reader thread side

  /// Hands a non-empty batch to the consumer, blocking while the channel is full. Returns false
  /// once the consumer has gone (cancelled or dropped): the reader thread should stop.
  func send(_ batch: Batch, linesSplit: Int) -> Bool {
    while true {
      switch state.withLock({ $0.send(batch) }) {
      case .buffered:
        return true
      case .resumeConsumer(let consumer):
        consumer(.success(batch))
        return true
      case .blockReader:
        probe.readerWillBlock(linesSplit)
        readerWakeup.wait()  // Signalled by `receive` taking a batch, or by `cancel`.
      case .stopReader:
        return false
      }
    }
  }

  /// Records the end of the input (nil) or a failure, delivered after the buffered batches.
  func finish(_ failure: LineInputError?) {
    let end: Result<Void, LineInputError> = failure.map { .failure($0) } ?? .success(())
    if let (consumer, delivery) = state.withLock({ $0.finish(end) }) {
      consumer(delivery)
    }
  }

  // MARK: Consumer side

  /// The next batch, nil at the end or after cancellation, or the failure that ended the input.
  func receive(isolation actor: isolated (any Actor)? = #isolation) async -> Delivery {
    if let delivery = takeAvailable(orInstall: nil) { return delivery }
    return await withTaskCancellationHandler {
      await withCheckedContinuation(isolation: actor) { (continuation: CheckedContinuation<Delivery, Never>) in
        let consumer: Machine.Consumer = { continuation.resume(returning: $0) }
        if let delivery = takeAvailable(orInstall: consumer) { consumer(delivery) }
      }
    } onCancel: {
      cancel()
    }
  }

  /// The next batch as ``receive(isolation:)`` delivers it, for a consumer on a thread that may
  /// block: blocks until the reader thread sends one, ends, fails, or ``cancel()`` is called
  /// (then nil). `beforeWaiting` runs first when nothing is ready, before blocking: e.g. to hand
  /// on work held back for batching, since this thread will be idle.
  func receiveBlocking(beforeWaiting: () -> Void) -> Delivery {
    if let delivery = takeAvailable(orInstall: nil) { return delivery }
    beforeWaiting()
    let handoff = BlockedConsumer<Delivery>()
    if let delivery = takeAvailable(orInstall: { handoff.resume($0) }) { return delivery }
    return handoff.wait()
  }

  /// What is due now, if anything; otherwise `consumer`, if given, waits for the reader thread.
  private func takeAvailable(orInstall consumer: Machine.Consumer?) -> Delivery? {
    switch state.withLock({ $0.receive(orInstall: consumer) }) {
    case .deliver(let delivery, let wakeReader):
      if wakeReader { readerWakeup.signal() }
      return delivery
    case .wait:
      return nil
    }
  }

  /// Stops the channel for good: the consumer gets nil, the reader thread stops at its next
  /// `send` or wakes from `poll(2)` and stops. Called on task cancellation and when the iterator
  /// is dropped; later calls do nothing.
  func cancel() {
    guard case .stop(let consumer, let wakeReader)? = state.withLock({ $0.cancel() }) else { return }
    consumer?(.success(nil))
    if wakeReader { readerWakeup.signal() }
    cancellationSignal.signal()
  }
}

/// A thread blocked until another hands it one value.
final class BlockedConsumer<Value: Sendable>: Sendable {
  private let value = Mutex<Value?>(nil)
  /// Signalled once, by `resume`, and waited on once, so its count is back to zero at the end.
  private let ready = DispatchSemaphore(value: 0)

  /// Hands `delivered` to the waiting thread; called once.
  func resume(_ delivered: Value) {
    value.withLock { $0 = delivered }
    ready.signal()
  }

  /// Blocks until ``resume(_:)`` has been called, and returns what it handed over.
  func wait() -> Value {
    while true {
      ready.wait()
      if let delivered = value.withLock({ $0.take() }) { return delivered }
    }
  }
}
