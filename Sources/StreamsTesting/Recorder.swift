// A thread-safe list that tests append to from inside tasks and read from the driving thread.
import Synchronization

/// Values appended from any task or thread, read back in the order they were appended.
///
/// Useful for recording what code under test emits, from inside the tasks a
/// `VirtualTimeRunner` drives, and checking it between driving calls.
///
/// ```swift
/// let seen = Recorder<String>()
/// try runner.run { seen.append("tay") }
/// #expect(seen.values == ["tay"])
/// ```
public final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  /// An empty recorder.
  public init() {}

  /// Appends `value`.
  public func append(_ value: Value) { storage.withLock { $0.append(value) } }

  /// Everything appended so far, in order.
  public var values: [Value] { storage.withLock { $0 } }
}
