// The decisions of the hand-off between the threads that produce events and the thread that
// encodes and writes them, as a plain value: each call returns what to do, and `EventHandOff`
// does it after releasing its lock.

/// Events queue here for the writer thread, at most `capacity` of them: a producer that finds
/// the queue full waits for room, so a stalled output stops the run instead of growing it.
struct EventHandOffStateMachine<Event> {
  private enum State {
    /// No event yet, so no writer thread yet.
    case unstarted
    /// The writer thread writes a batch, or is about to take one; `queued` waits for its next
    /// turn, `blockedProducers` wait for room, and `goal` says how much it writes before it
    /// sleeps again.
    case writing(queued: [Event], blockedProducers: Int, goal: Goal)
    /// The writer thread sleeps until woken; `queued` holds fewer events than are worth waking it
    /// for (none, when every event wakes it).
    case idle(queued: [Event])
    /// The writer thread has stopped or is stopping: everything was written, or the output
    /// closed. `writerStarted` says whether there is a thread to wait for. Events are dropped.
    case stopped(writerStarted: Bool)
  }

  /// How much of the queue the writer thread writes before it sleeps again.
  private enum Goal {
    /// Batches of at least `wakeAt`: fewer wait, asleep, for more or for a flush. A writer that
    /// woke for a batch and then wrote whatever came meanwhile would write a few events per
    /// call and sleep after each, costing the producer a wake-up per few events.
    case batches
    /// Everything queued when the producer flushed; then batches again.
    case everything
    /// Everything, now and later: no producer adds more once they are through, and the writer
    /// exits when the queue is empty.
    case end
  }

  /// How many events may wait for the writer thread.
  let capacity: Int
  /// How many queued events wake a sleeping writer thread: 1 for live output, where each event
  /// is written as soon as it comes; more for a replay, whose producer also wakes it with
  /// ``flush()`` before it idles.
  let wakeAt: Int
  private var state = State.unstarted

  init(capacity: Int, wakeAt: Int) {
    precondition(capacity >= 1 && (1...capacity).contains(wakeAt), "Internal inconsistency: no room for a batch")
    self.capacity = capacity
    self.wakeAt = wakeAt
  }

  enum EnqueueAction: Equatable {
    /// The event waits in the queue.
    case queued
    /// The event is queued; start the writer thread, which will take it.
    case startWriter
    /// The event is queued; wake the sleeping writer thread.
    case wakeWriter
    /// The queue is full: wait until the writer thread makes room (or stops), then enqueue again.
    case waitForRoom
    /// The output is over: drop the event.
    case drop
  }

  mutating func enqueue(_ event: Event) -> EnqueueAction {
    switch state {
    case .unstarted:
      state = .writing(queued: [event], blockedProducers: 0, goal: .everything)
      return .startWriter
    case .writing(var queued, let blocked, let goal):
      guard queued.count < capacity else {
        state = .writing(queued: queued, blockedProducers: blocked + 1, goal: goal)
        return .waitForRoom
      }
      state = .unstarted  // Release the array so that appending does not copy it.
      queued.append(event)
      state = .writing(queued: queued, blockedProducers: blocked, goal: goal)
      return .queued
    case .idle(var queued):
      state = .unstarted
      queued.append(event)
      guard queued.count >= wakeAt else {
        state = .idle(queued: queued)
        return .queued
      }
      state = .writing(queued: queued, blockedProducers: 0, goal: .batches)
      return .wakeWriter
    case .stopped:
      return .drop
    }
  }

  /// The producer is about to idle (e.g. wait for input): wake the writer thread if events wait.
  mutating func flush() -> Bool {
    switch state {
    case .idle(let queued) where !queued.isEmpty:
      state = .writing(queued: queued, blockedProducers: 0, goal: .everything)
      return true
    case .writing(let queued, let blocked, .batches):
      // Awake: it writes what is queued before it sleeps.
      state = .writing(queued: queued, blockedProducers: blocked, goal: .everything)
      return false
    case .unstarted, .idle, .writing, .stopped:
      return false
    }
  }

  enum FinishAction: Equatable {
    /// Wait for the writer thread to write what is queued and stop; wake it first if `wake`.
    case waitForWriter(wake: Bool)
    /// There is no writer thread to wait for.
    case done
  }

  /// No more events will come: the writer thread writes the queue out, then stops.
  mutating func finish() -> FinishAction {
    switch state {
    case .unstarted:
      state = .stopped(writerStarted: false)
      return .done
    case .writing(let queued, let blocked, _):
      state = .writing(queued: queued, blockedProducers: blocked, goal: .end)
      return .waitForWriter(wake: false)
    case .idle(let queued):
      state = .writing(queued: queued, blockedProducers: 0, goal: .end)
      return .waitForWriter(wake: true)
    case .stopped(let writerStarted):
      return writerStarted ? .waitForWriter(wake: false) : .done
    }
  }

  enum TakeAction {
    /// Write these events, in order; first wake this many producers waiting for room.
    case write([Event], wakeProducers: Int)
    /// Nothing to write: sleep until a producer wakes the writer thread, then take again.
    case sleep
    /// Stop the writer thread.
    case exit
  }

  /// For the writer thread: what to do next. After writing a batch it sleeps while fewer than
  /// `wakeAt` events are queued, unless the producer flushed or finished.
  mutating func take() -> TakeAction {
    switch state {
    case .unstarted:
      preconditionFailure("Internal inconsistency: a writer thread ran before any event")
    case .writing(let queued, let blocked, let goal):
      if queued.isEmpty && goal == .end {
        state = .stopped(writerStarted: true)
        return .exit
      }
      // Fewer than a batch means not full (a batch is at most the capacity), so no producer
      // waits for room.
      guard !queued.isEmpty, goal != .batches || queued.count >= wakeAt else {
        state = .idle(queued: queued)
        return .sleep
      }
      state = .writing(queued: [], blockedProducers: 0, goal: goal == .end ? .end : .batches)
      return .write(queued, wakeProducers: blocked)
    case .idle:
      // Woken without a transition to `writing`: cannot happen, as every wake-up is one.
      preconditionFailure("Internal inconsistency: the writer thread took while asleep")
    case .stopped:
      return .exit
    }
  }

  /// For the writer thread, after a write failed: nothing more is written. Returns how many
  /// producers wait for room and must be woken (they will drop their events).
  mutating func close() -> Int {
    switch state {
    case .writing(_, let blocked, _):
      state = .stopped(writerStarted: true)
      return blocked
    case .unstarted, .idle, .stopped:
      preconditionFailure("Internal inconsistency: a write failed in \(state)")
    }
  }
}
