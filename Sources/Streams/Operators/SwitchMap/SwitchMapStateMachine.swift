// The decisions of switchMap, free of locks and tasks: which child is the latest, when an output
// may pass, when a cancellation is reported, and when the sequence ends.

/// switchMap's state: the running child of the latest element, the base's progress, and the
/// consumer side.
///
/// @usableFromInline rather than private throughout, so that it is specialised in the module
/// that uses switchMap (see Downstream.swift); only SwitchMapStorage touches it.
@usableFromInline
struct SwitchMapStateMachine<Input: Sendable, Output: Sendable>: PumpedOperatorState {
  @usableFromInline typealias Event = SwitchMapEvent<Input, Output>

  /// What the storage does after releasing the lock.
  @usableFromInline
  struct Action {
    @usableFromInline var resumption: Resumption<Event>?
    @usableFromInline var cancelChild: SwitchMapChildHandle?
    @usableFromInline var cancelPump: Task<Void, Never>?
    @usableFromInline var cancelUpstream: PushSubscription?

    @inlinable init() {}
  }

  @usableFromInline
  struct Child {
    @usableFromInline var generation: UInt64
    @usableFromInline var input: Input
    /// How to stop the child; nil while it is still in its synchronous start.
    @usableFromInline var handle: SwitchMapChildHandle?

    @inlinable init(generation: UInt64, input: Input) {
      self.generation = generation
      self.input = input
    }
  }

  /// The latest element's child while it runs; nil once it returned (or none started yet). A
  /// child that is still in its synchronous start has no task yet (and may never need one).
  @usableFromInline var latest: Child?
  @usableFromInline var generation: UInt64 = 0
  /// The generation of the child that returned last: a pending child can return during its
  /// start, before its handle is recorded, and must then not be cancelled.
  @usableFromInline var lastReturned: UInt64 = 0
  @usableFromInline var pump: Task<Void, Never>?
  /// Push mode: the subscription to the base, which takes the place of the pump.
  @usableFromInline var upstream: PushSubscription?
  @usableFromInline var consumerHasLeft = false
  @usableFromInline var baseHasFinished = false
  @usableFromInline var downstream = Downstream<Event>()

  @inlinable init() {}

  /// A new element: returns the generation its child must carry, nil when the sequence ended.
  @inlinable mutating func element(_ input: Input) -> (generation: UInt64?, action: Action) {
    var action = Action()
    guard !downstream.isEnded else { return (nil, action) }
    if let previous = latest {
      // The previous child is superseded: stop it, and say so before the new child speaks.
      action.cancelChild = previous.handle
      action.resumption = downstream.send(.cancelled(previous.input, by: input))
    }
    // At most one of the two sends resumes the consumer: the second is buffered behind it.
    let started = downstream.send(.started(input))
    action.resumption = action.resumption ?? started
    generation &+= 1
    latest = Child(generation: generation, input: input)
    return (generation, action)
  }

  @inlinable mutating func childStarted(_ handle: SwitchMapChildHandle, generation: UInt64) -> SwitchMapChildHandle? {
    // Returned already (a pending child that finished in its start): nothing to stop.
    if lastReturned == generation { return nil }
    guard latest?.generation == generation, !downstream.isEnded else {
      // Superseded (or the consumer left) before its handle was recorded: stop it now.
      return handle
    }
    latest?.handle = handle
    return nil
  }

  /// Push mode: records the subscription to the base; returns it to be cancelled when the
  /// consumer left meanwhile.
  @inlinable mutating func upstreamStarted(_ subscription: PushSubscription) -> PushSubscription? {
    guard !consumerHasLeft else { return subscription }
    upstream = subscription
    return nil
  }

  @inlinable mutating func childEmitted(_ output: Output, generation: UInt64) -> (emitted: Bool, Resumption<Event>?) {
    guard let current = latest, current.generation == generation, !downstream.isEnded else {
      // A superseded child's output: never delivered, even within the same instant.
      return (false, nil)
    }
    return (true, downstream.send(.output(output)))
  }

  @inlinable mutating func childReturned(generation: UInt64) -> Resumption<Event>? {
    guard latest?.generation == generation else { return nil }
    latest = nil
    lastReturned = generation
    return baseHasFinished ? downstream.finish() : nil
  }

  @inlinable mutating func baseFinished() -> Resumption<Event>? {
    baseHasFinished = true
    if latest != nil {
      // The last child still runs: the sequence ends when it returns.
      return nil
    }
    return downstream.finish()
  }

  @inlinable mutating func baseFailed(_ error: any Error) -> Action {
    var action = Action()
    action.cancelChild = latest?.handle
    latest = nil
    action.resumption = downstream.finish(throwing: error)
    return action
  }

  @inlinable mutating func consumerCancelled() -> Action {
    consumerHasLeft = true
    var action = Action()
    action.cancelChild = latest?.handle
    latest = nil
    action.cancelPump = pump
    pump = nil
    action.cancelUpstream = upstream
    upstream = nil
    action.resumption = downstream.cancel()
    return action
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
