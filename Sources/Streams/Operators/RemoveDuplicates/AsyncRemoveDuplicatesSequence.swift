// removeDuplicates: drop an element whose key equals the previous element's key.
import Synchronization

extension AsyncSequence {
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
  public func removeDuplicates<Key: Equatable>(
    by key: @escaping @Sendable (Element) -> Key
  ) -> AsyncRemoveDuplicatesSequence<Self, Key> {
    AsyncRemoveDuplicatesSequence(base: self, key: key)
  }
}

extension AsyncSequence where Element: Equatable & Sendable {
  /// Drops each element equal to the element before it.
  public func removeDuplicates() -> AsyncRemoveDuplicatesSequence<Self, Element> {
    AsyncRemoveDuplicatesSequence(base: self, key: { $0 })
  }
}

/// An asynchronous sequence of its base's elements without adjacent duplicates by key.
///
/// - **Element**: emitted when its key differs from the previous element's key (the first
///   element is always emitted); otherwise dropped.
/// - **Finish** and **failure**: passed through as they come.
/// - **Cancellation**: it runs in the consumer's task; the base sees the same cancellation.
public struct AsyncRemoveDuplicatesSequence<Base: AsyncSequence, Key: Equatable>: AsyncSequence {
  public typealias Element = Base.Element

  @usableFromInline let base: Base
  @usableFromInline let key: @Sendable (Element) -> Key

  @inlinable init(base: Base, key: @escaping @Sendable (Element) -> Key) {
    self.base = base
    self.key = key
  }

  /// Creates the iterator.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), key: key)
  }

  /// Produces the elements whose key differs from the previous one's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let key: @Sendable (Element) -> Key
    @usableFromInline var lastKey: Key?

    @inlinable init(base: Base.AsyncIterator, key: @escaping @Sendable (Element) -> Key) {
      self.base = base
      self.key = key
    }

    /// The next element whose key differs from the previous element's, or nil at the end.
    @inlinable public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Base.Failure) -> Element? {
      while let element = try await base.next(isolation: actor) {
        let elementKey = key(element)
        if elementKey != lastKey {
          lastKey = elementKey
          return element
        }
      }
      return nil
    }

    /// The next element whose key differs from the previous element's, or nil at the end.
    @inlinable public mutating func next() async throws -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension AsyncRemoveDuplicatesSequence: Sendable where Base: Sendable {}

extension AsyncRemoveDuplicatesSequence: PushableAsyncSequence where Base: PushableAsyncSequence {
  /// Pushes the base's elements whose key differs from the previous one's to `receiver`, on
  /// the base's thread; the end passes through. Same semantics as iterating.
  @inlinable public func subscribe(_ receiver: PushReceiver<Element>) -> PushSubscription {
    // Erased to the protocol: a @Sendable closure may not capture `Key`'s metatype, which need
    // not be Sendable.
    let filter: any ElementFilter<Element> = DuplicateFilter(key: key)
    return base.subscribe(
      PushReceiver(
        element: { element in if filter.isNew(element) { receiver.element(element) } }, end: receiver.end))
  }
}

/// Decides, element by element, what passes.
@usableFromInline
protocol ElementFilter<Element>: Sendable {
  associatedtype Element
  /// Whether `element` passes.
  func isNew(_ element: Element) -> Bool
}

/// The key of the last element passed, for the push path.
///
/// `@unchecked Sendable`: `Key` need not be Sendable (the pulled iterator never shares it), and
/// the key never leaves this object; the lock makes the calls safe even though a pushing base
/// never overlaps them.
@usableFromInline
final class DuplicateFilter<Element, Key: Equatable>: ElementFilter, @unchecked Sendable {
  @usableFromInline let key: @Sendable (Element) -> Key
  @usableFromInline let lock = Mutex(())
  @usableFromInline var lastKey: Key?

  @inlinable init(key: @escaping @Sendable (Element) -> Key) { self.key = key }

  /// Whether `element`'s key differs from the last one's; remembers it if so.
  @inlinable func isNew(_ element: Element) -> Bool {
    let elementKey = key(element)
    return lock.withLock { _ in
      guard elementKey != lastKey else { return false }
      lastKey = elementKey
      return true
    }
  }
}
