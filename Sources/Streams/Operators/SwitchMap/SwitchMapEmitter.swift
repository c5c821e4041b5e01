// How a switchMap child hands its outputs on: only while its element is the latest.

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
