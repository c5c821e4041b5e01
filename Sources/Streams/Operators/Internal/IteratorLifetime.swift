// Iterators are structs and cannot run code when dropped; the operators' tasks hold their
// storage strongly, so storage cannot notice either. This token, owned only by the iterator,
// ends the operator's tasks when the consumer drops the iterator (a `break` out of the loop).

/// Calls `onDrop` once when the last copy of the iterator that owns it goes away.
@usableFromInline
final class IteratorLifetime: Sendable {
  @usableFromInline let onDrop: @Sendable () -> Void

  @inlinable init(onDrop: @escaping @Sendable () -> Void) { self.onDrop = onDrop }

  deinit { onDrop() }
}
