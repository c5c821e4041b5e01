// AsyncFeed, the head of a pushed chain: what is fed before a subscription, fed by the receiver
// itself, after cancellation, and to a task that iterates it.
import Streams
import StreamsTesting
import Testing

@Suite struct AsyncFeedTests {
  @Test func aFeedDeliversWhatWasFedBeforeTheSubscriptionThenTheRestInOrder() {
    let feed = AsyncFeed<Int>()
    feed.yield(1)
    feed.yield(2)
    let seen = Recorder<Int>()
    let subscription = feed.subscribe(
      PushReceiver(
        element: { value in
          seen.append(value)
          // Fed by the receiver itself: queued, and delivered after this call returns.
          if value == 3 { feed.yield(4) }
        },
        end: { _ in seen.append(-1) }))
    #expect(seen.values == [1, 2])
    feed.yield(3)
    #expect(seen.values == [1, 2, 3, 4])
    feed.finish()
    feed.yield(5)
    #expect(seen.values == [1, 2, 3, 4, -1])
    subscription.cancel()
  }

  @Test func aCancelledFeedSubscriptionHearsNothingMore() {
    let feed = AsyncFeed<Int>()
    let seen = Recorder<Int>()
    let subscription = feed.subscribe(PushReceiver(element: { seen.append($0) }, end: { _ in seen.append(-1) }))
    feed.yield(1)
    subscription.cancel()
    feed.yield(2)
    feed.finish()
    #expect(seen.values == [1])
  }

  @Test func aFeedIteratedByATaskEndsWhenTheTaskIsCancelled() throws {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<Int>()
    let seen = Recorder<Int>()
    let task = runner.start { for await value in feed { seen.append(value) } }
    feed.yield(1)
    runner.runUntilIdle()
    task.cancel()
    feed.yield(2)
    try runner.finish(task)
    #expect(seen.values == [1])
  }
}
