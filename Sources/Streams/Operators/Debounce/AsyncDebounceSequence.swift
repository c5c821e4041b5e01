// debounce: emit an element only after its quiet period has passed with no newer element.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits an element once `interval` has passed on `clock` without a newer element.
  ///
  /// Useful for a search field: only the text the user paused on is searched.
  ///
  /// ```swift
  /// let runner = VirtualTimeRunner()
  /// let clock = runner.clock
  /// let (keystrokes, typing) = AsyncStream.makeStream(of: String.self)
  /// let searched = runner.start {
  ///   var texts: [String] = []
  ///   for try await text in keystrokes.debounce(for: .milliseconds(300), clock: clock) { texts.append(text) }
  ///   return texts
  /// }
  /// typing.yield("t"); typing.yield("ta")
  /// runner.advance(by: .milliseconds(100))   // nothing yet: the user is still typing
  /// typing.yield("tay")
  /// runner.advance(by: .milliseconds(300))   // 300 ms quiet after "tay": it is emitted now
  /// typing.finish()
  /// let texts = try runner.finish(searched)  // texts == ["tay"]: "t" and "ta" were superseded
  /// ```
  ///
  /// See ``AsyncDebounceSequence`` for the exact semantics.
  @inlinable public func debounce<C: Clock>(
    for interval: Duration, clock: C
  ) -> AsyncDebounceSequence<Self, C> where C.Duration == Duration {
    AsyncDebounceSequence(base: self, clock: clock, quietPeriod: { _ in interval })
  }

  /// Emits an element once the quiet period chosen for it has passed on `clock` without a newer
  /// element (RxJS `debounce(durationSelector)`). A zero or negative period emits at once.
  ///
  /// Useful when some elements must not wait: an emptied search field clears the results at
  /// once while letters wait for the typist to pause.
  ///
  /// ```swift
  /// let runner = VirtualTimeRunner()
  /// let (texts, typing) = AsyncStream.makeStream(of: String.self)
  /// let shown = Recorder<String>()          // StreamsTesting
  /// let debounced = texts.debounce(clock: runner.clock) { $0.isEmpty ? .zero : .milliseconds(300) }
  /// let task = runner.start { for try await text in debounced { shown.append(text) } }
  /// typing.yield("tay"); runner.runUntilIdle()   // shown.values == []: letters wait
  /// typing.yield(""); runner.runUntilIdle()      // shown.values == [""]: the results clear at once
  /// typing.finish()
  /// try runner.finish(task)                      // "tay" was dropped, never shown
  /// ```
  @inlinable public func debounce<C: Clock>(
    clock: C, quietPeriod: @escaping @Sendable (Element) -> Duration
  ) -> AsyncDebounceSequence<Self, C> where C.Duration == Duration {
    AsyncDebounceSequence(base: self, clock: clock, quietPeriod: quietPeriod)
  }
}

/// An asynchronous sequence that emits an element of its base only after the element's quiet
/// period has passed with no newer element (trailing edge).
///
/// ## Semantics
/// - **Element**: the element becomes pending with deadline `now + quietPeriod(element)`,
///   replacing any pending element. At its deadline (inclusive) it is emitted. A zero or
///   negative quiet period emits it at once and drops any pending element.
/// - **Finish**: a pending element is emitted at once, then the sequence finishes.
/// - **Failure**: the pending element is dropped and the error is thrown to the consumer.
/// - **Cancellation**: when the consuming task is cancelled or drops the iterator, nothing more
///   is emitted and iteration of the base is cancelled.
///
/// ## Ordering
/// Elements are emitted in the order of their deadlines; a waiting consumer receives each as
/// soon as it is due. At one instant, a deadline fires before an element arriving then.
///
/// ## Caveats
/// One consumer at a time. A base that cannot push (see ``PushableAsyncSequence``) is iterated
/// by a task of the sequence's own, started on the first `next()`, which waits while the
/// consumer has not taken an emitted element; on a ``VirtualTimeRunner`` it stays on the runner.
public struct AsyncDebounceSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable, C.Duration == Duration {
  public typealias Element = Base.Element

  @usableFromInline let base: Base
  @usableFromInline let clock: C
  @usableFromInline let quietPeriod: @Sendable (Element) -> Duration

  @inlinable init(base: Base, clock: C, quietPeriod: @escaping @Sendable (Element) -> Duration) {
    self.base = base
    self.clock = clock
    self.quietPeriod = quietPeriod
  }

  /// The same debounce over another base of the same type. Its closure is copied as it is
  /// stored: a chain built once and rebased per session (the pipeline's) converts no closure
  /// per session, and each conversion would allocate.
  @inlinable package func replacingBase(_ base: Base) -> Self {
    Self(base: base, clock: clock, quietPeriod: quietPeriod)
  }

  /// Creates the iterator; iteration of the base starts on its first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(pulled: PulledIterator(subscribe: { [self] receiver, route in connect(receiver, route: route) }))
  }

  /// Produces the debounced elements; see ``AsyncDebounceSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let pulled: PulledIterator<Element>

    @inlinable init(pulled: PulledIterator<Element>) { self.pulled = pulled }

    /// The next debounced element, or nil when the sequence finished or the task was cancelled.
    @inlinable public mutating func next() async throws -> Element? {
      try await pulled.next()
    }
  }
}

extension AsyncDebounceSequence: PushedSequence {
  @inlinable func connect(_ receiver: PushReceiver<Element>, route: PullRoute) -> PushSubscription {
    DebounceStorage.subscribe(receiver, route: route, to: base, clock: clock, quietPeriod: quietPeriod)
  }
}

extension AsyncDebounceSequence: PushableAsyncSequence where Base: PushableAsyncSequence {
  /// Debounces the base's pushed elements and pushes the settled ones to `receiver`, with no
  /// task (on a ``ManualClock`` the timer is a call the clock makes; on a live clock, an entry
  /// in the clock's one timer). Same semantics as iterating; see ``AsyncDebounceSequence``.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    connect(receiver, route: .pushed)
  }
}
