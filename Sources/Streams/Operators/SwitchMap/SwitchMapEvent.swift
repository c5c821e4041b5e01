// What switchMap yields: each element's start, its child's outputs, and which children a newer
// element cancelled.

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
