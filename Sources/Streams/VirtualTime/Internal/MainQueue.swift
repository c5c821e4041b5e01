// Whether code runs on the main queue: a drive that would wait for the main queue from there
// would never end, so it runs its steps in place instead.
import Dispatch
import Foundation

/// Whether the caller runs on the main queue, where waiting for the main queue would never end.
/// `Thread.isMainThread` alone is not enough: on Linux, once the program calls `dispatch_main()`
/// (async `main` does), the main queue is drained by a worker thread, not the main thread.
enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true || Thread.isMainThread }
}
