// The bounded hand-off between a `LineReader`'s thread and its async iterator: lines travel in
// batches, at most `capacity` batches wait, and a full channel blocks the reader thread, so a
// slow consumer stops the reading instead of letting it pile up lines.
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
final class LineBatchChannel: Sendable {
  typealias Batch = LineBatchChannelStateMachine.Batch
  typealias Delivery = LineBatchChannelStateMachine.Delivery

  let probe: LineReaderProbe
  private let state: Mutex<LineBatchChannelStateMachine>
  /// Wakes the reader thread blocked on a full channel; signalled only when it waits, so its
  /// count is back to zero whenever the channel is deallocated (libdispatch checks).
  private let readerWakeup = DispatchSemaphore(value: 0)
  /// Written once on cancellation, so that a reader thread blocked in `poll(2)` wakes up.
  let cancellationSignal: CancellationSignal

  init(capacity: Int, probe: LineReaderProbe, cancellationSignal: CancellationSignal) {
    self.state = Mutex(LineBatchChannelStateMachine(capacity: capacity))
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
        consumer.resume(returning: .success(batch))
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
      consumer.resume(returning: delivery)
    }
  }

  // MARK: Consumer side

  /// The next batch, nil at the end or after cancellation, or the failure that ended the input.
  func receive(isolation actor: isolated (any Actor)? = #isolation) async -> Delivery {
    if let delivery = takeAvailable(orInstall: nil) { return delivery }
    return await withTaskCancellationHandler {
      await withCheckedContinuation(isolation: actor) { (consumer: LineBatchChannelStateMachine.Consumer) in
        if let delivery = takeAvailable(orInstall: consumer) { consumer.resume(returning: delivery) }
      }
    } onCancel: {
      cancel()
    }
  }

  /// What is due now, if anything; otherwise `consumer`, if given, waits for the reader thread.
  private func takeAvailable(orInstall consumer: LineBatchChannelStateMachine.Consumer?) -> Delivery? {
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
    consumer?.resume(returning: .success(nil))
    if wakeReader { readerWakeup.signal() }
    cancellationSignal.signal()
  }
}
