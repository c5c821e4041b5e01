// The real-time bound of a test helper's wait. It fires only once the task threads have had a turn
// at what was queued for them when the time ran out: a wait whose task could not even run, because
// other tests held every task thread, has not shown that the task will never finish.
import Dispatch

/// Calls an action once a real-time limit has passed and the task threads have since run the
/// work queued before it; cancelling it before then keeps the action from being called.
struct RealTimeLimit {
  private let timer: DispatchWorkItem

  /// Arms the limit: after `timeout`, a task of `priority` is queued behind the work already
  /// waiting for a task thread, and when it runs it queues itself once more (behind what that
  /// work resumed), then calls `action`.
  init(after timeout: Duration, priority: TaskPriority?, _ action: @escaping @Sendable () -> Void) {
    let timer = DispatchWorkItem {
      Task(priority: priority) {
        await Task.yield()
        action()
      }
    }
    self.timer = timer
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(timeout.wholeNanoseconds), execute: timer)
  }

  /// Keeps the action from being called, unless the limit has already passed; an action called
  /// after the wait ended must therefore find nothing to do.
  func cancel() { timer.cancel() }
}
