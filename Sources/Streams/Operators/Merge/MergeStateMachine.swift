// The rules of merge, free of locks and receivers: how many bases are still running, and what an
// element, a base's end and the consumer's leaving do. MergeStorage holds it behind a lock and
// performs the returned action after releasing the lock.

/// merge's decisions: the bases still running.
///
/// @usableFromInline rather than private, so that it is specialised in the module that uses
/// merge (see PushOutput.swift); only MergeStorage touches it.
@usableFromInline
struct MergeStateMachine<Element: Sendable>: Sendable {
  @usableFromInline
  enum State: Sendable {
    /// `running` bases have not ended yet.
    case merging(running: Int)
    /// Every base finished, one failed, or the consumer left: nothing more is emitted.
    case ended
  }

  /// What MergeStorage does after releasing the lock.
  @usableFromInline
  enum Action: Sendable {
    /// Nothing to do.
    case none
    /// Emit `element` now.
    case emit(Element)
    /// Finish the sequence.
    case finish
    /// Cancel every base still running, then fail with `error`.
    case cancelBasesAndFail(any Error)
    /// Cancel every base still running.
    case cancelBases
  }

  @usableFromInline var state: State

  /// A merge of `bases` bases, all running.
  @inlinable init(bases: Int) { state = .merging(running: bases) }

  /// Every base has been subscribed to.
  @inlinable mutating func basesConnected() -> Action {
    switch state {
    case .merging(running: 0):
      // No base at all: the sequence finishes at once.
      state = .ended
      return .finish
    case .merging, .ended:
      // The bases go on (or all ended while they were being subscribed to).
      return .none
    }
  }

  /// A base pushed `element`.
  @inlinable mutating func element(_ element: Element) -> Action {
    switch state {
    case .merging:
      // Every element of every base passes, in the order pushed.
      return .emit(element)
    case .ended:
      // A base racing another's failure or the consumer's leaving: dropped.
      return .none
    }
  }

  /// A base finished.
  @inlinable mutating func baseFinished() -> Action {
    switch state {
    case .merging(let running) where running <= 1:
      // The last base finished: so does the sequence.
      state = .ended
      return .finish
    case .merging(let running):
      // Others still run.
      state = .merging(running: running - 1)
      return .none
    case .ended:
      // Ended already: nothing more.
      return .none
    }
  }

  /// A base failed with `error`.
  @inlinable mutating func baseFailed(_ error: any Error) -> Action {
    switch state {
    case .merging:
      // The first failure ends the merge: the other bases have nothing left to contribute.
      state = .ended
      return .cancelBasesAndFail(error)
    case .ended:
      // A later failure, or one racing the consumer's leaving: dropped.
      return .none
    }
  }

  /// The consumer left (cancelled its subscription, or its task).
  @inlinable mutating func cancelled() -> Action {
    switch state {
    case .merging:
      // Nobody listens: stop every base.
      state = .ended
      return .cancelBases
    case .ended:
      // Every base ended, or was cancelled when one failed: nothing runs any more.
      return .none
    }
  }
}
