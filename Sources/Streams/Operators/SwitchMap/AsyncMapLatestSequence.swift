// mapLatest: the common case of switchMap, one output per element, superseded ones dropped.

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Transforms each element in a new task, cancelling the transform of the previous element;
  /// yields only the results of transforms that were not superseded.
  ///
  /// Useful when only the answer for the latest input matters. See ``AsyncSwitchMapSequence``
  /// for the semantics of finish, failure and cancellation.
  @inlinable public func mapLatest<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) async -> Output
  ) -> AsyncMapLatestSequence<Self, Output> {
    AsyncMapLatestSequence(switchMap { input, emit in emit(await transform(input)) })
  }

  /// Like ``mapLatest(_:)``, for a transform that can fail: its failures become elements, so one
  /// failing transform does not end the sequence. A superseded transform's result, including
  /// its `CancellationError`, is never yielded.
  @inlinable public func mapLatest<Output: Sendable>(
    catching transform: @escaping @Sendable (Element) async throws -> Output
  ) -> AsyncMapLatestSequence<Self, Result<Output, any Error>> {
    AsyncMapLatestSequence(
      switchMap { input, emit in
        do {
          emit(.success(try await transform(input)))
        } catch {
          emit(.failure(error))
        }
      })
  }
}

/// An asynchronous sequence of the outputs of ``AsyncSwitchMapSequence``, without its
/// cancellation reports.
public struct AsyncMapLatestSequence<Base: AsyncSequence & Sendable, Output: Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  public typealias Element = Output

  @usableFromInline let switchMap: AsyncSwitchMapSequence<Base, Output>

  @inlinable init(_ switchMap: AsyncSwitchMapSequence<Base, Output>) { self.switchMap = switchMap }

  /// Creates the iterator.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(base: switchMap.makeAsyncIterator())
  }

  /// Produces the outputs of the transforms that were not superseded.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: AsyncSwitchMapSequence<Base, Output>.Iterator

    @inlinable init(base: AsyncSwitchMapSequence<Base, Output>.Iterator) { self.base = base }

    /// The next output, or nil when the sequence finished or the task was cancelled.
    @inlinable public mutating func next() async throws -> Output? {
      while let event = try await base.next() {
        if case .output(let output) = event { return output }
      }
      return nil
    }
  }
}
