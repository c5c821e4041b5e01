// A thread-safe slot for bytes that a reader thread hands to the test that waits for it.
import Foundation
import Synchronization

/// Bytes handed from a reader thread to the test thread.
public final class Collected: Sendable {
  private let data = Mutex(Data())

  /// An empty slot.
  public init() {}

  /// Stores what the reader read.
  public func set(_ value: Data) { data.withLock { $0 = value } }

  /// What the reader stored.
  public func get() -> Data { data.withLock { $0 } }
}
