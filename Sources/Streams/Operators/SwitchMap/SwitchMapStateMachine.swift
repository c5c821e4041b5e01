// The rules of switchMap, free of locks, tasks and receivers: which child is the latest, when an
// output may pass, when a cancellation is reported, and when the sequence ends. SwitchMapStorage
// holds it behind a lock and performs the returned action after releasing the lock.

/// switchMap's decisions: the child of the latest element, and the base's progress.
///
/// @usableFromInline rather than private, so that it is specialised in the module that uses
/// switchMap (see PushOutput.swift); only SwitchMapStorage touches it.
@usableFromInline
struct SwitchMapStateMachine<Input: Sendable, Output: Sendable>: Sendable {
  @usableFromInline typealias Event = SwitchMapEvent<Input, Output>

  /// A running child: its element, its generation, and how to stop it (nil while it is still
  /// in its synchronous start).
  @usableFromInline
  struct Child: Sendable {
    @usableFromInline var generation: UInt64
    @usableFromInline var input: Input
    @usableFromInline var handle: SwitchMapChildHandle?

    @inlinable init(generation: UInt64, input: Input) {
      self.generation = generation
      self.input = input
    }
  }

  @usableFromInline
  enum State: Sendable {
    /// No child runs; the base goes on.
    case idle
    /// The latest element's child runs; the base goes on.
    case running(Child)
    /// The base has finished; the last child runs, and the sequence ends when it returns.
    case lastChildRunning(Child)
    /// Finished, failed, or the consumer left: nothing more is emitted.
    case ended
  }

  /// What SwitchMapStorage does after releasing the lock.
  @usableFromInline
  enum Action: Sendable {
    /// Nothing to do.
    case none
    /// Emit `.started(input)`, then start its child under `generation`.
    case emitStartedAndStartChild(Input, generation: UInt64)
    /// Cancel the superseded child, emit `.cancelled(old, by: input)` and `.started(input)`, then
    /// start the new child under `generation`.
    case cancelChildEmitAndStartChild(SwitchMapChildHandle?, cancelled: Input, Input, generation: UInt64)
    /// Emit the latest child's output.
    case emitOutput(Output)
    /// Cancel a child that must not go on.
    case cancelChild(SwitchMapChildHandle?)
    /// Finish the sequence.
    case finish
    /// Cancel the running child (if any), then fail with `error`.
    case cancelChildAndFail(SwitchMapChildHandle?, any Error)
  }

  @usableFromInline var state = State.idle
  @usableFromInline var generation: UInt64 = 0
  /// The generation of the child that returned last: a pending child can return during its
  /// start, before its handle is recorded, and must then not be cancelled.
  @usableFromInline var lastReturned: UInt64 = 0

  @inlinable init() {}

  /// A new element of the base.
  @inlinable mutating func element(_ input: Input) -> Action {
    switch state {
    case .idle:
      // Nothing to supersede: its child starts.
      generation &+= 1
      state = .running(Child(generation: generation, input: input))
      return .emitStartedAndStartChild(input, generation: generation)
    case .running(let previous):
      // The previous child is superseded: stop it, and say so before the new child speaks.
      generation &+= 1
      state = .running(Child(generation: generation, input: input))
      return .cancelChildEmitAndStartChild(previous.handle, cancelled: previous.input, input, generation: generation)
    case .lastChildRunning, .ended:
      // The base pushed after its end, or the consumer left while it pushed: nothing more.
      return .none
    }
  }

  /// The child of `generation` got past its synchronous start and can be stopped by `handle`.
  @inlinable mutating func childStarted(_ handle: SwitchMapChildHandle, generation: UInt64) -> Action {
    switch state {
    case .running(var child) where child.generation == generation:
      // The usual case: keep the handle, to stop it when superseded.
      child.handle = handle
      state = .running(child)
      return .none
    case .lastChildRunning(var child) where child.generation == generation:
      // The base finished during its start: keep the handle all the same.
      child.handle = handle
      state = .lastChildRunning(child)
      return .none
    case _ where lastReturned == generation:
      // A pending child that returned during its start: nothing to stop.
      return .none
    case .idle, .running, .lastChildRunning, .ended:
      // Superseded (or the consumer left) before its handle was recorded: stop it now.
      return .cancelChild(handle)
    }
  }

  /// The child of `generation` emitted `output`.
  @inlinable mutating func childEmitted(_ output: Output, generation: UInt64) -> Action {
    switch state {
    case .running(let child) where child.generation == generation,
      .lastChildRunning(let child) where child.generation == generation:
      // The latest child: its output passes.
      return .emitOutput(output)
    case .idle, .running, .lastChildRunning, .ended:
      // A superseded child's output: never delivered, even within the same instant.
      return .none
    }
  }

  /// The child of `generation` returned.
  @inlinable mutating func childReturned(generation: UInt64) -> Action {
    switch state {
    case .running(let child) where child.generation == generation:
      // The latest child is done; the base goes on.
      lastReturned = generation
      state = .idle
      return .none
    case .lastChildRunning(let child) where child.generation == generation:
      // The last child is done and so is the base: the sequence ends.
      lastReturned = generation
      state = .ended
      return .finish
    case .idle, .running, .lastChildRunning, .ended:
      // A superseded child returning after its cancellation.
      return .none
    }
  }

  /// The base finished.
  @inlinable mutating func baseFinished() -> Action {
    switch state {
    case .idle:
      // No child runs: the sequence ends.
      state = .ended
      return .finish
    case .running(let child):
      // The last child still runs: the sequence ends when it returns.
      state = .lastChildRunning(child)
      return .none
    case .lastChildRunning, .ended:
      // A second end from the base, or the consumer left first.
      return .none
    }
  }

  /// The base failed with `error`.
  @inlinable mutating func baseFailed(_ error: any Error) -> Action {
    switch state {
    case .idle:
      // No child runs: fail.
      state = .ended
      return .cancelChildAndFail(nil, error)
    case .running(let child), .lastChildRunning(let child):
      // The running child has nothing left to contribute.
      state = .ended
      return .cancelChildAndFail(child.handle, error)
    case .ended:
      // The consumer left first: nothing to deliver.
      return .none
    }
  }

  /// The consumer left (cancelled its subscription, or its task).
  @inlinable mutating func cancelled() -> Action {
    switch state {
    case .running(let child), .lastChildRunning(let child):
      // Its output would go nowhere: stop the running child.
      state = .ended
      return .cancelChild(child.handle)
    case .idle, .ended:
      // No child runs.
      state = .ended
      return .none
    }
  }
}

/// How a running child is stopped: its task cancelled, or (a ``SwitchMapChild/pending(cancel:)``
/// child) its own cancel called.
@usableFromInline
enum SwitchMapChildHandle: Sendable {
  case task(Task<Void, Never>)
  case pending(@Sendable () -> Void)

  @inlinable func cancel() {
    switch self {
    case .task(let task): task.cancel()
    case .pending(let cancel): cancel()
    }
  }
}
