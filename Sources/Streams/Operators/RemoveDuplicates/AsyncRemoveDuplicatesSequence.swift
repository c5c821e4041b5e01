// removeDuplicates: drop an element whose key equals the previous element's key. A simple
// operator, so one file: its rule (DuplicateFilter), its pushed stage, and its sequence.
import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Drops each element whose `key` equals the key of the element before it.
  ///
  /// Useful after a debounce: "tay" typed, erased and typed again settles twice on the same text,
  /// and should not search twice. Only adjacent duplicates are dropped (O(1) memory).
  ///
  /// ```swift
  /// let (terms, settle) = AsyncStream.makeStream(of: String.self)
  /// for term in ["tay", "Tay", "taylor", "tay"] { settle.yield(term) }
  /// settle.finish()
  /// var searched: [String] = []
  /// for await term in terms.removeDuplicates(by: { $0.lowercased() }) { searched.append(term) }
  /// // searched == ["tay", "taylor", "tay"]: only a repeat of the term just before is dropped
  /// ```
  @inlinable public func removeDuplicates<Key: Equatable>(
    by key: @escaping @Sendable (Element) -> Key
  ) -> AsyncRemoveDuplicatesSequence<Self, Key> {
    AsyncRemoveDuplicatesSequence(base: self, key: key)
  }
}

extension AsyncSequence where Self: Sendable, Element: Equatable & Sendable {
  /// Drops each element equal to the element before it.
  @inlinable public func removeDuplicates() -> AsyncRemoveDuplicatesSequence<Self, Element> {
    AsyncRemoveDuplicatesSequence(base: self, key: { $0 })
  }
}

/// An asynchronous sequence of its base's elements without adjacent duplicates by key.
///
/// - **Element**: emitted when its key differs from the previous element's key (the first
///   element is always emitted); otherwise dropped.
/// - **Finish** and **failure**: passed through as they come.
/// - **Cancellation**: pulled over a base that cannot push, it runs in the consumer's task,
///   with no task of its own: the base sees the same cancellation. Pushed, cancelling the
///   subscription cancels the base's.
public struct AsyncRemoveDuplicatesSequence<Base: AsyncSequence & Sendable, Key: Equatable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let key: @Sendable (Element) -> Key

  @inlinable init(base: Base, key: @escaping @Sendable (Element) -> Key) {
    self.base = base
    self.key = key
  }

  /// The same operator over another base of the same type, its closure copied as it is stored
  /// (see `AsyncDebounceSequence.replacingBase(_:)`).
  @inlinable package func replacingBase(_ base: Base) -> Self {
    Self(base: base, key: key)
  }

  /// Creates the iterator.
  @inlinable public func makeAsyncIterator() -> Iterator {
    // Erased: a @Sendable closure may not capture `Key`'s metatype, which need not be Sendable.
    let stage: any PushedSequence<Element> = self
    return Iterator(pulled: PulledIterator(subscribe: { receiver, route in stage.connect(receiver, route: route) }))
  }

  /// Produces the elements whose key differs from the previous one's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let pulled: PulledIterator<Element>

    @inlinable init(pulled: PulledIterator<Element>) { self.pulled = pulled }

    /// The next element whose key differs from the previous element's, or nil at the end. A
    /// second task calling it while another waits in it gets nil (the first keeps every element).
    @inlinable public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Base.Failure) -> Element? {
      do {
        return try await pulled.next()
      } catch let failure as Base.Failure {
        throw failure
      } catch {
        // SecondConsumerError, which a sequence that cannot fail has no way to throw.
        return nil
      }
    }

    /// The next element whose key differs from the previous element's, or nil at the end.
    @inlinable public mutating func next() async throws -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncRemoveDuplicatesSequence: PushedSequence {
  @inlinable func connect(_ receiver: PushReceiver<Element>, route: PullRoute) -> PushSubscription {
    RemoveDuplicatesStorage.subscribe(receiver, route: route, to: base, key: key)
  }
}

extension AsyncRemoveDuplicatesSequence: PushableAsyncSequence where Base: PushableAsyncSequence {
  /// Pushes the base's elements whose key differs from the previous one's to `receiver`, on
  /// the base's thread; the end passes through. Same semantics as iterating.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    connect(receiver, route: .pushed)
  }
}

/// The rule of removeDuplicates: whether an element's key differs from the last key passed.
@usableFromInline
struct DuplicateFilter<Key: Equatable> {
  @usableFromInline enum State {
    /// Nothing has passed yet: the first element always does.
    case first
    /// `key` is the key of the element passed last.
    case passed(key: Key)
  }

  @usableFromInline var state = State.first

  @inlinable init() {}

  /// Whether an element with `key` passes; remembers the key if so.
  @inlinable mutating func passes(_ key: Key) -> Bool {
    switch state {
    case .passed(let last) where last == key:
      // A repeat of the element just before: dropped.
      return false
    case .first, .passed:
      // The first element, or a new key.
      state = .passed(key: key)
      return true
    }
  }
}

/// removeDuplicates as a pushed stage. It emits only when fed, on the feeding thread, so it
/// needs no queue of its own: its base never delivers two elements at once, so neither does it.
/// Generic over its receiver, as DebounceStorage is.
///
/// `@unchecked Sendable`: `Key` need not be Sendable; the keys never leave this object, and every
/// access to `state` holds `lock`.
@usableFromInline
package final class RemoveDuplicatesStorage<Element: Sendable, Key: Equatable, Receiver: PushDownstream>: PushInput,
  PushCancellable, @unchecked Sendable
where Receiver.Element == Element {
  @usableFromInline struct State {
    @usableFromInline var filter = DuplicateFilter<Key>()
    /// Nil once the end was passed on or the subscription cancelled.
    @usableFromInline var receiver: Receiver?
    @usableFromInline var upstream = UpstreamLink.connecting

    @inlinable init(receiver: Receiver) { self.receiver = receiver }
  }

  @usableFromInline let key: @Sendable (Element) -> Key
  @usableFromInline let lock = Mutex(())
  @usableFromInline var state: State

  /// A stage that passes on to `receiver` each element it is handed whose key differs from the
  /// previous one's.
  @inlinable package init(key: @escaping @Sendable (Element) -> Key, receiver: Receiver) {
    self.key = key
    state = State(receiver: receiver)
  }

  /// Filters what `base` pushes and pushes the rest to `receiver`. Pulled, the consumer's own
  /// task iterates a base that cannot push: this stage never emits by itself.
  @inlinable static func subscribe<Base: AsyncSequence & Sendable>(
    _ receiver: Receiver, route: PullRoute, to base: Base, key: @escaping @Sendable (Element) -> Key
  ) -> PushSubscription where Base.Element == Element {
    let storage = RemoveDuplicatesStorage(key: key, receiver: receiver)
    storage.follow(pushElements(of: base, to: PushReceiver(storage), route: route))
    return PushSubscription(storage)
  }

  /// In a chain composed of concrete stages, the stage before this one: cancelled with this one,
  /// as a subscribed base is.
  @inlinable package func follow(_ upstream: PushSubscription) {
    let stale = lock.withLock { _ in state.upstream.connected(upstream) }
    stale?.cancel()
  }

  @inlinable package func receive(_ element: Element) {
    let elementKey = key(element)
    let receiver = lock.withLock { _ -> Receiver? in
      guard let receiver = state.receiver, state.filter.passes(elementKey) else { return nil }
      return receiver
    }
    receiver?.receive(element)
  }

  @inlinable package func receiveEnd(_ error: (any Error)?) {
    let receiver = lock.withLock { _ -> Receiver? in
      state.upstream.ended()
      defer { state.receiver = nil }
      return state.receiver
    }
    receiver?.receiveEnd(error)
  }

  @inlinable package func cancel() {
    let upstream = lock.withLock { _ -> PushSubscription? in
      state.receiver = nil
      return state.upstream.cancel()
    }
    upstream?.cancel()
  }
}
