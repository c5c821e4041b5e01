// merge: the elements of any number of sequences, interleaved as they come.

/// Merges any number of sequences of one type into one, interleaving their elements as they
/// come. Unlike swift-async-algorithms' `merge`, which stops at three, this takes any number.
///
/// Useful to fetch several categories in parallel and show each answer as soon as it comes.
///
/// ```swift
/// let (music, musicAnswers) = AsyncStream.makeStream(of: String.self)
/// let (movies, movieAnswers) = AsyncStream.makeStream(of: String.self)
/// musicAnswers.yield("Red"); musicAnswers.finish()
/// movieAnswers.yield("Heat"); movieAnswers.yield("Up"); movieAnswers.finish()
/// var titles: [String] = []
/// for try await title in merge([music, movies]) { titles.append(title) }
/// // titles holds "Red", "Heat" and "Up"; "Heat" comes before "Up"; the loop ends when both finish
/// ```
@inlinable public func merge<Base: AsyncSequence & Sendable>(_ bases: [Base]) -> AsyncMergeSequence<Base>
where Base.Element: Sendable {
  AsyncMergeSequence(bases: bases)
}

/// Merges the given sequences, as the form that takes an array does; ``AsyncMergeSequence``
/// states what happens on element, finish, failure and cancellation.
@inlinable public func merge<Base: AsyncSequence & Sendable>(_ bases: Base...) -> AsyncMergeSequence<Base>
where Base.Element: Sendable {
  AsyncMergeSequence(bases: bases)
}

/// An asynchronous sequence of the elements of several sequences, as they come.
///
/// ## Semantics
/// - **Element**: every element of every base is yielded once, in the order the bases produced
///   them; the order of one base's elements is kept.
/// - **Finish**: the sequence finishes when every base has finished (at once for no bases).
/// - **Failure**: the first failure of any base cancels the others and is thrown after the
///   elements already produced.
/// - **Cancellation**: when the consuming task is cancelled or drops the iterator, every base's
///   iteration is cancelled and nothing more is yielded.
///
/// ## Backpressure
/// Each base that cannot push runs at most one element ahead of the consumer: a base that
/// produced an element while as many elements wait as there are such bases waits until the
/// consumer takes one. A base that pushes (see ``PushableAsyncSequence``) is not held back.
public struct AsyncMergeSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  public typealias Element = Base.Element

  @usableFromInline let bases: [Base]

  @inlinable init(bases: [Base]) { self.bases = bases }

  /// Creates the iterator; iteration of the bases starts on its first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(pulled: PulledIterator(subscribe: { [self] receiver, route in connect(receiver, route: route) }))
  }

  /// Produces the merged elements; see ``AsyncMergeSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let pulled: PulledIterator<Element>

    @inlinable init(pulled: PulledIterator<Element>) { self.pulled = pulled }

    /// The next element of any base, or nil when all finished or the task was cancelled.
    @inlinable public mutating func next() async throws -> Element? {
      try await pulled.next()
    }
  }
}

extension AsyncMergeSequence: PushedSequence {
  @inlinable func connect(_ receiver: PushReceiver<Element>, route: PullRoute) -> PushSubscription {
    MergeStorage.subscribe(receiver, route: route, to: bases)
  }
}
