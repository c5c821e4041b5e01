// A flag set once and read by other threads.
import Synchronization

final class AtomicFlag: Sendable {
  private let value = Atomic<Bool>(false)

  init() {}

  var isSet: Bool { value.load(ordering: .acquiring) }

  func set() { value.store(true, ordering: .releasing) }
}
