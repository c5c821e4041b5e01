// The decisions of the channel between a line reader's thread and its consumer, as a plain value:
// each event returns what to do, and `LineBatchChannel` does it after releasing its lock.

struct LineBatchChannelStateMachine<Element: Sendable> {
  typealias Batch = [Element]
  /// What the consumer receives: a batch, nil at the end, or the failure that ended the input.
  typealias Delivery = Result<Batch?, LineInputError>
  /// A consumer that waits: a suspended task or a blocked thread, resumed once with its delivery.
  typealias Consumer = @Sendable (Delivery) -> Void

  private enum State {
    /// The reader thread is reading; `batches` wait for the consumer (at most `capacity`), and
    /// `readerBlocked` says whether the reader waits for room (until half of it is free).
    case reading(batches: [Batch], readerBlocked: Bool)
    /// The consumer waits for a batch; nothing is buffered.
    case consumerWaiting(Consumer)
    /// The reader thread is done; the buffered batches, then `end`, are still to be delivered.
    case ended(batches: [Batch], end: Result<Void, LineInputError>)
    /// Everything was delivered, or the consumer went away: only nils from now on.
    case done
  }

  /// How many batches may wait before the reader thread blocks.
  let capacity: Int
  private var state = State.reading(batches: [], readerBlocked: false)

  init(capacity: Int) {
    precondition(capacity >= 1, "Internal inconsistency: a channel needs room for a batch")
    self.capacity = capacity
  }

  enum SendAction {
    /// The batch waits in the buffer.
    case buffered
    /// Hand the batch straight to the waiting consumer.
    case resumeConsumer(Consumer)
    /// The buffer is full: block the reader thread until `receive` or `cancel` wakes it, then
    /// send again.
    case blockReader
    /// Nobody listens any more: the reader thread should stop.
    case stopReader
  }

  mutating func send(_ batch: Batch) -> SendAction {
    switch state {
    case .reading(var batches, let readerBlocked):
      // A blocked reader sends nothing until it is woken, which clears the flag.
      precondition(!readerBlocked, "Internal inconsistency: a blocked reader sent a batch")
      if batches.count == capacity {
        state = .reading(batches: batches, readerBlocked: true)
        return .blockReader
      }
      state = .done  // Release the array so that appending does not copy it.
      batches.append(batch)
      state = .reading(batches: batches, readerBlocked: false)
      return .buffered
    case .consumerWaiting(let consumer):
      // The consumer ran dry and waits: give it this batch directly.
      state = .reading(batches: [], readerBlocked: false)
      return .resumeConsumer(consumer)
    case .ended:
      preconditionFailure("Internal inconsistency: \(state) received a batch after the end")
    case .done:
      // Cancelled or dropped while the reader was reading.
      return .stopReader
    }
  }

  /// The reader thread reached the end of the input or failed; returns a consumer to resume
  /// with `delivery` if one waits.
  mutating func finish(_ end: Result<Void, LineInputError>) -> (Consumer, Delivery)? {
    switch state {
    case .reading(let batches, _):
      // The consumer will find the end after the buffered batches.
      state = .ended(batches: batches, end: end)
      return nil
    case .consumerWaiting(let consumer):
      // Nothing is buffered, so the end is due now.
      state = .done
      return (consumer, end.map { _ -> Batch? in nil })
    case .ended:
      preconditionFailure("Internal inconsistency: \(state) finished twice")
    case .done:
      // Cancelled meanwhile: nobody to tell.
      return nil
    }
  }

  enum ReceiveAction {
    /// Deliver this now; if `wakeReader`, the reader thread blocked on a full buffer may go on.
    case deliver(Delivery, wakeReader: Bool)
    /// Nothing yet; the consumer, if one was given, now waits.
    case wait
  }

  mutating func receive(orInstall consumer: Consumer?) -> ReceiveAction {
    switch state {
    case .reading(var batches, let readerBlocked):
      guard !batches.isEmpty else {
        // Empty means not full, so the reader cannot be blocked.
        precondition(!readerBlocked, "Internal inconsistency: a reader blocked on an empty buffer")
        if let consumer { state = .consumerWaiting(consumer) }
        return .wait
      }
      state = .done
      let batch = batches.removeFirst()
      // Taking a batch makes room, but a blocked reader is woken only once half the buffer is
      // free: it then sends several batches per wake-up, and a wake-up (a system call, and on
      // another core an interrupt) costs the consumer more than the batches it waited for.
      let wake = readerBlocked && batches.count <= capacity / 2
      state = .reading(batches: batches, readerBlocked: readerBlocked && !wake)
      return .deliver(.success(batch), wakeReader: wake)
    case .consumerWaiting:
      preconditionFailure("Internal inconsistency: \(state) received a second consumer")
    case .ended(var batches, let end):
      guard !batches.isEmpty else {
        // Everything was delivered: now the end, or the failure, once.
        state = .done
        return .deliver(end.map { _ -> Batch? in nil }, wakeReader: false)
      }
      state = .done
      let batch = batches.removeFirst()
      state = .ended(batches: batches, end: end)
      return .deliver(.success(batch), wakeReader: false)
    case .done:
      // After the end, a failure or cancellation the sequence stays over.
      return .deliver(.success(nil), wakeReader: false)
    }
  }

  enum CancelAction {
    /// Stop: resume the waiting consumer (if any) with nil, wake a reader blocked on a full
    /// buffer, and signal the reader thread out of `poll(2)`.
    case stop(consumer: Consumer?, wakeReader: Bool)
  }

  /// The consumer went away (task cancelled or iterator dropped); nil if already over.
  mutating func cancel() -> CancelAction? {
    switch state {
    case .reading(_, let readerBlocked):
      // Drop what was read but not consumed.
      state = .done
      return .stop(consumer: nil, wakeReader: readerBlocked)
    case .consumerWaiting(let consumer):
      // The cancelled consumer waits in `receive`: it gets nil.
      state = .done
      return .stop(consumer: consumer, wakeReader: false)
    case .ended:
      // The reader thread is gone; only the buffered lines are dropped.
      state = .done
      return .stop(consumer: nil, wakeReader: false)
    case .done:
      return nil
    }
  }
}
