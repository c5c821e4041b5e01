// The state of `publish`'s queue, decided under the publisher's lock: keystrokes waiting for
// Redis in input order, how many were stored, who waits for room or for the end, and how it
// ended. Each event returns the waiters to resume; the publisher resumes them after the lock.
import Pipeline

/// A keystroke waiting for Redis, with its input line.
struct PendingKeystroke: Sendable {
  let keystroke: Keystroke
  let line: Int?
}

struct PublishQueue {
  /// Keystrokes queued beyond which `publish` waits.
  let limit: Int
  private var queue: [PendingKeystroke] = []
  private var head = 0
  private var published = 0
  private var stored = 0
  private var failure: PublishFailure?
  private var roomWaiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var doneWaiters: [CheckedContinuation<Void, Never>] = []
  private var endActions: [@Sendable () -> Void] = []
  private(set) var senderEnded = false

  init(limit: Int) {
    self.limit = limit
  }

  /// Keystrokes read and not yet acknowledged.
  var waiting: Int { queue.count - head }

  /// Whether `publish` must wait for room.
  var isFull: Bool { waiting >= limit && !senderEnded }

  /// How it went so far (or ended).
  var outcome: PublishOutcome {
    PublishOutcome(
      published: published, stored: stored, resumeLine: waiting > 0 ? queue[head].line : nil, failure: failure)
  }

  /// Queues a keystroke; false when the sender has ended (it is counted, never sent).
  mutating func enqueue(_ pending: PendingKeystroke) -> Bool {
    published += 1
    queue.append(pending)
    return !senderEnded
  }

  /// The next keystrokes to send, oldest first, at most `count`: a copy, so that the queue's
  /// storage stays unshared and keeps growing in place while they are on their way.
  func nextBatch(_ count: Int) -> [PendingKeystroke] {
    Array(queue[head..<min(queue.count, head + count)])
  }

  /// Parks a waiter for room; false when there is room (or the sender ended) and it should go on.
  mutating func waitForRoom(id: Int, _ continuation: CheckedContinuation<Void, Never>, cancelled: Bool) -> Bool {
    guard isFull, !cancelled else { return false }
    roomWaiters.append((id, continuation))
    return true
  }

  /// Takes back a waiter for room whose task was cancelled.
  mutating func cancelWait(id: Int) -> CheckedContinuation<Void, Never>? {
    guard let index = roomWaiters.firstIndex(where: { $0.id == id }) else { return nil }
    return roomWaiters.remove(at: index).continuation
  }

  /// Parks a waiter for the end; false when nothing is left to wait for.
  mutating func waitForDone(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
    guard waiting > 0, !senderEnded else { return false }
    doneWaiters.append(continuation)
    return true
  }

  /// Registers what to do once the sender has ended; false when it already has (do it now).
  mutating func whenEnded(_ action: @escaping @Sendable () -> Void) -> Bool {
    guard !senderEnded else { return false }
    endActions.append(action)
    return true
  }

  /// The first `settled` keystrokes of the batch were stored (and `storedLater` more after them,
  /// which stay queued: a refusal came first); returns the waiters to wake.
  mutating func acknowledge(settled: Int, storedLater: Int = 0) -> [CheckedContinuation<Void, Never>] {
    head += settled
    stored += settled + storedLater
    if head == queue.count {
      queue.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 65_536 {
      queue.removeSubrange(0..<head)
      head = 0
    }
    var woken: [CheckedContinuation<Void, Never>] = []
    if waiting < limit / 2 {
      woken += roomWaiters.map(\.continuation)
      roomWaiters = []
    }
    if waiting == 0 {
      woken += doneWaiters
      doneWaiters = []
    }
    return woken
  }

  /// The sender ended (stopped, or `failure`); returns every waiter to wake and the end actions.
  mutating func end(_ failure: PublishFailure?) -> (
    waiters: [CheckedContinuation<Void, Never>], actions: [@Sendable () -> Void]
  ) {
    senderEnded = true
    if self.failure == nil { self.failure = failure }
    defer {
      roomWaiters = []
      doneWaiters = []
      endActions = []
    }
    return (roomWaiters.map(\.continuation) + doneWaiters, endActions)
  }
}
