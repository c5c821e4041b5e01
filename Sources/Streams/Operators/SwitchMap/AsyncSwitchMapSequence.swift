// switchMap (cancel-previous): each element starts a child task and cancels the one before it.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// For each element, runs `child` in a new task and cancels the previous element's child.
  ///
  /// Useful for searching as the user types: a newer term cancels the search in flight, and
  /// cooperative cancellation reaches its network request. The child emits its outputs through
  /// the emitter it is given; the sequence yields them, and says which children were cancelled.
  ///
  /// ```swift
  /// let runner = VirtualTimeRunner()
  /// let clock = runner.clock
  /// let (terms, typing) = AsyncStream.makeStream(of: String.self)
  /// let shown = runner.start {
  ///   var shown: [String] = []
  ///   for try await event in terms.switchMap({ term, emit in
  ///     guard (try? await clock.sleep(for: .milliseconds(100))) != nil else { return }  // a 100 ms search
  ///     emit("results for \(term)")
  ///   }) {
  ///     switch event {
  ///     case .started(let term): shown.append("searching \(term)")
  ///     case .output(let output): shown.append(output)
  ///     case .cancelled(let term, by: let newer): shown.append("\(term) superseded by \(newer)")
  ///     }
  ///   }
  ///   return shown
  /// }
  /// typing.yield("ta"); runner.advance(by: .milliseconds(50))   // the search for "ta" is in flight
  /// typing.yield("tay"); runner.advance(by: .milliseconds(100))
  /// typing.finish()
  /// let lines = try runner.finish(shown)
  /// // lines == ["searching ta", "ta superseded by tay", "searching tay", "results for tay"]
  /// ```
  ///
  /// See ``AsyncSwitchMapSequence`` for the exact semantics.
  @inlinable public func switchMap<Output: Sendable>(
    _ child: @escaping @Sendable (Element, SwitchMapEmitter<Output>) async -> Void
  ) -> AsyncSwitchMapSequence<Self, Output> {
    AsyncSwitchMapSequence(base: self, child: { input, emit in .task { await child(input, emit) } })
  }

  /// Like ``switchMap(_:)``, for a child that can often answer at once: `start` runs
  /// synchronously when the element arrives (after the previous child's cancellation and the
  /// `.started` event), emits what it can, and returns ``SwitchMapChild/finished`` when it is
  /// done, or ``SwitchMapChild/task(_:)`` with the work that must wait, which then runs in a task
  /// of the sequence's own. No task is started for a child that finishes in its start.
  ///
  /// ```swift
  /// let runner = VirtualTimeRunner()
  /// let (terms, typing) = AsyncStream.makeStream(of: String.self)
  /// let known = ["tay": "Taylor Swift"]
  /// let answered = runner.start {
  ///   var shown: [String] = []
  ///   for try await event in terms.switchMap(starting: { (term, emit: SwitchMapEmitter<String>) in
  ///     if let hit = known[term] {
  ///       emit(hit)                     // answered at once: no task
  ///       return .finished
  ///     }
  ///     return .task { emit("fetched \(term)") }
  ///   }) {
  ///     if case .output(let output) = event { shown.append(output) }
  ///   }
  ///   return shown
  /// }
  /// typing.yield("tay"); typing.yield("bey"); typing.finish()
  /// let shown = try runner.finish(answered)   // shown == ["Taylor Swift", "fetched bey"]
  /// ```
  @inlinable public func switchMap<Output: Sendable>(
    starting start: @escaping @Sendable (Element, SwitchMapEmitter<Output>) -> SwitchMapChild
  ) -> AsyncSwitchMapSequence<Self, Output> {
    AsyncSwitchMapSequence(base: self, child: start)
  }
}

/// How a switchMap child goes on after its synchronous start (``AsyncSequence/switchMap(starting:)``).
public struct SwitchMapChild: Sendable {
  @usableFromInline enum Kind: Sendable {
    case finished
    case task(@Sendable () async -> Void)
    case pending(cancel: @Sendable () -> Void)
  }

  @usableFromInline let kind: Kind

  @inlinable init(kind: Kind) { self.kind = kind }

  /// The child did all its work in its start: it has returned, and no task is started.
  @inlinable public static var finished: SwitchMapChild { SwitchMapChild(kind: .finished) }

  /// The child goes on with `work` in a task of the sequence's own, cancelled when a newer
  /// element arrives; the child has returned when `work` returns.
  @inlinable public static func task(_ work: @escaping @Sendable () async -> Void) -> SwitchMapChild {
    SwitchMapChild(kind: .task(work))
  }

  /// The child goes on without a task: what it waits for (callbacks it has set up) will call
  /// the emitter's ``SwitchMapEmitter/finish()`` when it is done, which is when it has
  /// returned. `cancel` is called once, outside any lock, if a newer element arrives or the
  /// consumer leaves first: the child must stop (its outputs are no longer delivered).
  @inlinable public static func pending(cancel: @escaping @Sendable () -> Void) -> SwitchMapChild {
    SwitchMapChild(kind: .pending(cancel: cancel))
  }
}

/// What a ``AsyncSwitchMapSequence`` yields.
public enum SwitchMapEvent<Input: Sendable, Output: Sendable>: Sendable {
  /// The child of `input` was started. Yielded synchronously when the element arrives, after
  /// the cancellation of the previous child and before anything the new child emits, so every
  /// element is reported even when a newer one supersedes it before its child ever runs.
  case started(Input)
  /// An output of the latest element's child.
  case output(Output)
  /// The child of `input` had not returned when the newer element `by` arrived, and was
  /// cancelled. Yielded before anything of the newer element's child.
  case cancelled(Input, by: Input)
}

extension SwitchMapEvent: Equatable where Input: Equatable, Output: Equatable {}

/// Passes a child's outputs downstream while its element is the latest.
public struct SwitchMapEmitter<Output: Sendable>: Sendable {
  @usableFromInline let deliver: @Sendable (Output) -> Bool
  @usableFromInline let returned: @Sendable () -> Void

  @inlinable init(deliver: @escaping @Sendable (Output) -> Bool, returned: @escaping @Sendable () -> Void) {
    self.deliver = deliver
    self.returned = returned
  }

  /// A ``SwitchMapChild/pending(cancel:)`` child has returned: call it once, when its last
  /// output is emitted (a superseded child may call it or not; it changes nothing). Children
  /// that finish in their start or in a task return by themselves and must not call it.
  @inlinable public func finish() { returned() }

  /// Emits `output` unless a newer element has superseded this child (or the consumer has gone);
  /// returns whether it was emitted. A superseded child's output is never emitted, even one
  /// produced in the same instant as the newer element.
  @discardableResult
  @inlinable public func callAsFunction(_ output: Output) -> Bool { deliver(output) }
}

/// An asynchronous sequence that runs a child task per element of its base, cancelling the
/// previous child when a newer element arrives (RxJS `switchMap`, `flatMapLatest`).
///
/// ## Semantics
/// - **Element**: a child task starts for it. If the previous child has not returned, it is
///   cancelled and `.cancelled(previous, by: element)` is yielded first. Outputs the child
///   emits are yielded as `.output` while it is the latest child; after that they are dropped.
/// - **Finish**: the sequence finishes when the base has finished and the last child has
///   returned.
/// - **Failure**: a failure of the base cancels the running child and is thrown to the
///   consumer. Children cannot fail: a child turns its failures into outputs (see
///   ``AsyncSequence/mapLatest(catching:)``), so one failing search never ends the stream.
/// - **Cancellation**: when the consuming task is cancelled or drops the iterator, the base's
///   iteration and the running child are cancelled and nothing more is yielded.
///
/// ## Caveats
/// One consumer at a time. Children that wait, and the iteration of a base that cannot push
/// (see ``PushableAsyncSequence``), run in tasks of the sequence's own; on a
/// ``VirtualTimeRunner`` they stay on the runner.
public struct AsyncSwitchMapSequence<Base: AsyncSequence & Sendable, Output: Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  public typealias Element = SwitchMapEvent<Base.Element, Output>

  @usableFromInline let base: Base
  @usableFromInline let child: @Sendable (Base.Element, SwitchMapEmitter<Output>) -> SwitchMapChild

  @inlinable init(base: Base, child: @escaping @Sendable (Base.Element, SwitchMapEmitter<Output>) -> SwitchMapChild) {
    self.base = base
    self.child = child
  }

  /// Creates the iterator; iteration of the base starts on its first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(pulled: PulledIterator(subscribe: { [self] receiver in connect(receiver) }))
  }

  /// Produces outputs and cancellations; see ``AsyncSwitchMapSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let pulled: PulledIterator<Element>

    @inlinable init(pulled: PulledIterator<Element>) { self.pulled = pulled }

    /// The next event, or nil when the sequence finished or the task was cancelled.
    @inlinable public mutating func next() async throws -> Element? {
      try await pulled.next()
    }
  }
}

extension AsyncSwitchMapSequence: PushedSequence {
  @inlinable func connect(_ receiver: PushReceiver<Element>) -> PushSubscription {
    SwitchMapStorage.subscribe(receiver, to: base, child: child)
  }
}

extension AsyncSwitchMapSequence: PushableAsyncSequence where Base: PushableAsyncSequence {
  /// Runs a child per pushed element and pushes the events to `receiver`; a child that
  /// finishes in its synchronous start costs no task. Same semantics as iterating; see
  /// ``AsyncSwitchMapSequence``.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    connect(receiver)
  }
}
