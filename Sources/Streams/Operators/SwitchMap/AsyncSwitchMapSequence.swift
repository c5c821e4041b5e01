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
///   ``_Concurrency/AsyncSequence/mapLatest(catching:)``), so one failing search never ends the stream.
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

  /// The same operator over another base of the same type, its closure copied as it is stored
  /// (see `AsyncDebounceSequence.replacingBase(_:)`).
  @inlinable package func replacingBase(_ base: Base) -> Self {
    Self(base: base, child: child)
  }

  /// Creates the iterator; iteration of the base starts on its first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(pulled: PulledIterator(subscribe: { [self] receiver, route in connect(receiver, route: route) }))
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
  @inlinable func connect(_ receiver: PushReceiver<Element>, route: PullRoute) -> PushSubscription {
    SwitchMapStorage.subscribe(receiver, route: route, to: base, child: child)
  }
}

extension AsyncSwitchMapSequence: PushableAsyncSequence where Base: PushableAsyncSequence {
  /// Runs a child per pushed element and pushes the events to `receiver`; a child that
  /// finishes in its synchronous start costs no task. Same semantics as iterating; see
  /// ``AsyncSwitchMapSequence``.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    connect(receiver, route: .pushed)
  }
}
