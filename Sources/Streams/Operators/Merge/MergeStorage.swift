// merge's shared storage: one task per base feeding one consumer, with at most one element per
// base waiting, so a fast base cannot fill memory while the consumer is slow.
import Synchronization

/// The state merge's producers and consumer share, behind one lock.
///
/// @inlinable throughout so that it is specialised for the bases of the module that uses it
/// (see Downstream.swift).
@usableFromInline
final class MergeStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
  @usableFromInline typealias Element = Base.Element

  @usableFromInline
  struct State {
    @usableFromInline var downstream = Downstream<Element>()
    @usableFromInline var tasks: [Task<Void, Never>] = []
    @usableFromInline var started = false
    @usableFromInline var running = 0
    @usableFromInline var producersWaitingForSpace: [UnsafeContinuation<Void, Never>] = []

    @inlinable init() {}
  }

  @usableFromInline let bases: [Base]
  @usableFromInline let state = Mutex(State())

  @inlinable init(bases: [Base]) { self.bases = bases }

  @inlinable func next() async throws -> Element? {
    let (ready, mustStart, wakeProducers) = state.withLock { state in
      let ready = state.downstream.poll()
      let wake = ready != nil ? takeProducersIfSpace(&state) : []
      let mustStart = !state.started
      state.started = true
      return (ready, mustStart, wake)
    }
    for producer in wakeProducers { producer.resume() }
    if let ready { return try ready.get() }
    if mustStart { startBases() }
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        let (resumption, wake) = state.withLock { state in
          (state.downstream.wait(continuation), takeProducersIfSpace(&state))
        }
        for producer in wake { producer.resume() }
        resumption?.resume()
      }
    } onCancel: {
      consumerCancelled()
    }
  }

  @inlinable func consumerCancelled() {
    let (resumption, tasks, producers) = state.withLock { state in
      let producers = state.producersWaitingForSpace
      state.producersWaitingForSpace = []
      let tasks = state.tasks
      state.tasks = []
      return (state.downstream.cancel(), tasks, producers)
    }
    for task in tasks { task.cancel() }
    for producer in producers { producer.resume() }
    resumption?.resume()
  }

  @inlinable func startBases() {
    let resumption = state.withLock { state in
      state.running = bases.count
      return bases.isEmpty ? state.downstream.finish() : nil
    }
    resumption?.resume()
    for base in bases {
      let task = Task(inheritingExecutor: { [self] in await produce(from: base) })
      let stale = state.withLock { state -> Bool in
        if state.downstream.isEnded { return true }
        state.tasks.append(task)
        return false
      }
      if stale { task.cancel() }
    }
  }

  @inlinable func produce(from base: Base) async {
    do {
      for try await element in base {
        let (resumption, mustWait) = state.withLock { state in
          (state.downstream.send(element), state.downstream.bufferedCount >= bases.count)
        }
        resumption?.resume()
        if mustWait { await waitForSpace() }
        if state.withLock({ $0.downstream.isEnded }) { return }
      }
      let resumption = state.withLock { state -> Resumption<Element>? in
        state.running -= 1
        return state.running == 0 ? state.downstream.finish() : nil
      }
      resumption?.resume()
    } catch {
      let (resumption, tasks) = state.withLock { state in
        (state.downstream.finish(throwing: error), state.tasks)
      }
      // One base failed: the others have nothing left to contribute.
      for task in tasks { task.cancel() }
      resumption?.resume()
    }
  }

  @inlinable func waitForSpace() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let resumeNow = state.withLock { state -> Bool in
        if state.downstream.isEnded || state.downstream.bufferedCount < bases.count { return true }
        state.producersWaitingForSpace.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  @inlinable func takeProducersIfSpace(_ state: inout State) -> [UnsafeContinuation<Void, Never>] {
    guard state.downstream.bufferedCount < bases.count, !state.producersWaitingForSpace.isEmpty else {
      return []
    }
    defer { state.producersWaitingForSpace = [] }
    return state.producersWaitingForSpace
  }
}
