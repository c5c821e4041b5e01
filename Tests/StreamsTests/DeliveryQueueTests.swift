// DeliveryQueue: the callee is called with the lock released, one call at a time, in the order
// elements were offered, including those it offers itself while it is called.
import Synchronization
import Testing

@testable import Streams

@Suite struct DeliveryQueueTests {
  private struct State {
    var deliveries = DeliveryQueue<Int>()
  }

  @Test func whatTheCalleeOffersWhileCalledIsDeliveredAfterItReturns() {
    let state = Mutex(State())
    let delivered = Mutex<[Int]>([])
    let queuedBehind = Mutex<[Int?]>([])
    let sink = { (event: Int) in
      delivered.withLock { $0.append(event) }
      guard event == 1 else { return }
      // Takes the lock: it would trap as a recursive lock if the sink were called under it.
      for later in [2, 3] { queuedBehind.withLock { $0.append(state.withLock { $0.deliveries.offer(later) }) } }
    }
    let event = 1
    var next = state.withLock { $0.deliveries.offer(event) }
    while let event = next {
      sink(event)  // the lock is released: the sink may call back in
      next = state.withLock { $0.deliveries.next() }
    }
    #expect(delivered.withLock { $0 } == [1, 2, 3])
    #expect(queuedBehind.withLock { $0 } == [nil, nil])
    #expect(state.withLock { $0.deliveries.isIdle })
  }

  @Test func anOfferWhileAnotherThreadDeliversIsQueuedAndClaimWaitsItsTurn() {
    var queue = DeliveryQueue<String>()
    // The queue's answers are taken outside `#expect`, which would capture `queue` immutably.
    let answers = [queue.offer("a"), queue.offer("b")]
    let claimedWhileDelivering = queue.claim()
    queue.enqueue("c")
    let delivered = [queue.next(), queue.next(), queue.next()]
    let idleAfterDelivering = queue.isIdle
    let claimedWhenIdle = queue.claim()
    #expect(answers == ["a", nil])
    #expect(!claimedWhileDelivering)
    #expect(delivered == ["b", "c", nil])
    #expect(idleAfterDelivering)
    #expect(claimedWhenIdle)
    #expect(!queue.isIdle)
  }
}
