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

final class LineBatchChannel: Sendable {
  typealias Batch = [InputLine]
  typealias Delivery = Result<Batch?, LineInputError>

  private struct State {
    var batches: [Batch] = []
    /// How the input ended, once the reader thread says so; delivered after the last batch.
    var end: Result<Void, LineInputError>?
    var consumer: CheckedContinuation<Delivery, Never>?
    var readerBlocked = false
    var cancelled = false
  }

  /// How many batches may wait for the consumer before the reader thread blocks.
  let capacity: Int
  let probe: LineReaderProbe
  private let state = Mutex(State())
  /// Wakes the reader thread blocked on a full channel; signalled only when it waits, so its
  /// count is back to zero whenever the channel is deallocated (libdispatch checks).
  private let readerWakeup = DispatchSemaphore(value: 0)
  /// Written once on cancellation, so that a reader thread blocked in `poll(2)` wakes up.
  let cancellationSignal: CancellationSignal

  init(capacity: Int, probe: LineReaderProbe, cancellationSignal: CancellationSignal) {
    self.capacity = capacity
    self.probe = probe
    self.cancellationSignal = cancellationSignal
  }

  // MARK: Reader thread side

  /// Hands a non-empty batch to the consumer, blocking while the channel is full. Returns false
  /// once the consumer has gone (cancelled or dropped): the reader thread should stop.
  func send(_ batch: Batch, linesSplit: Int) -> Bool {
    while true {
      enum Action { case stop, sent, resume(CheckedContinuation<Delivery, Never>), block }
      let action = state.withLock { state -> Action in
        if state.cancelled { return .stop }
        if let consumer = state.consumer {
          // The consumer waits, so nothing is buffered: hand the batch over directly.
          state.consumer = nil
          return .resume(consumer)
        }
        if state.batches.count < capacity {
          state.batches.append(batch)
          return .sent
        }
        state.readerBlocked = true
        return .block
      }
      switch action {
      case .stop: return false
      case .sent: return true
      case .resume(let consumer):
        consumer.resume(returning: .success(batch))
        return true
      case .block:
        probe.readerWillBlock(linesSplit)
        readerWakeup.wait()  // Signalled by `receive` taking a batch, or by `cancel`.
      }
    }
  }

  /// Records the end of the input (nil) or a failure, delivered after the buffered batches.
  func finish(_ failure: LineInputError?) {
    let consumer = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
      state.end = failure.map { .failure($0) } ?? .success(())
      defer { state.consumer = nil }
      return state.consumer
    }
    // A waiting consumer means nothing was buffered, so the end is due now.
    if let consumer { consumer.resume(returning: failure.map { .failure($0) } ?? .success(nil)) }
  }

  // MARK: Consumer side

  /// The next batch, nil at the end or after cancellation, or the failure that ended the input.
  func receive(isolation actor: isolated (any Actor)? = #isolation) async -> Delivery {
    if let delivery = takeAvailable() { return delivery }
    return await withTaskCancellationHandler {
      await withCheckedContinuation(isolation: actor) { (continuation: CheckedContinuation<Delivery, Never>) in
        if let delivery = takeAvailable(orInstall: continuation) { continuation.resume(returning: delivery) }
      }
    } onCancel: {
      cancel()
    }
  }

  /// Takes a buffered batch or the end if there is one; otherwise installs `continuation`, if
  /// given, to be resumed by the reader thread or by cancellation.
  private func takeAvailable(orInstall continuation: CheckedContinuation<Delivery, Never>? = nil) -> Delivery? {
    let (delivery, wakeReader) = state.withLock { state -> (Delivery?, Bool) in
      if !state.batches.isEmpty {
        let batch = state.batches.removeFirst()
        // There is room again: release a reader thread waiting for it.
        defer { state.readerBlocked = false }
        return (.success(batch), state.readerBlocked)
      }
      if state.cancelled { return (.success(nil), false) }
      switch state.end {
      case .success?: return (.success(nil), false)
      case .failure(let error)?:
        // Report a failure once; afterwards the sequence is simply over.
        state.end = .success(())
        return (.failure(error), false)
      case nil:
        if let continuation { state.consumer = continuation }
        return (nil, false)
      }
    }
    if wakeReader { readerWakeup.signal() }
    return delivery
  }

  /// Stops the channel for good: the consumer gets nil, the reader thread stops at its next
  /// `send` or wakes from `poll(2)` and stops. Called on task cancellation and when the iterator
  /// is dropped; later calls do nothing.
  func cancel() {
    let (consumer, wakeReader, first) = state.withLock { state in
      guard !state.cancelled else { return (CheckedContinuation<Delivery, Never>?.none, false, false) }
      state.cancelled = true
      state.batches = []
      defer { state.consumer = nil; state.readerBlocked = false }
      return (state.consumer, state.readerBlocked, true)
    }
    consumer?.resume(returning: .success(nil))
    if wakeReader { readerWakeup.signal() }
    if first { cancellationSignal.signal() }
  }
}
