// One consumer per sequence, and what a second one gets: never a crash (AsyncStream's answer)
// and never a wait for elements that go elsewhere. The first consumer keeps every element.
import Streams
import StreamsTesting
import Testing

@Suite struct SecondConsumerTests {
  @Test func aSecondTaskWaitingOnAFeedGetsTheEndAndTheFirstKeepsEveryElement() throws {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<Int>()
    let first = Recorder<Int>()
    let firstTask = runner.start { for await value in feed { first.append(value) } }
    runner.runUntilIdle()  // the first task now waits in next()
    let second = runner.start { await feed.next() }
    runner.runUntilIdle()
    // Answered at once, while the first task still waits.
    let answer = try #require(second.result, "the second consumer was left waiting")
    #expect(try answer.get() == nil)
    feed.yield(1)
    feed.yield(2)
    feed.finish()
    try runner.finish(firstTask)
    #expect(first.values == [1, 2])
  }

  @Test func iteratingASubscribedFeedGetsTheEndAndTheReceiverKeepsEveryElement() throws {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<Int>()
    let seen = Recorder<Int>()
    let subscription = feed.subscribe(PushReceiver(element: { seen.append($0) }, end: { _ in seen.append(-1) }))
    feed.yield(1)
    let iterated = Recorder<Int>()
    try runner.run { for await value in feed { iterated.append(value) } }
    feed.yield(2)
    feed.finish()
    #expect(iterated.values == [])
    #expect(seen.values == [1, 2, -1])
    subscription.cancel()
  }

  @Test func aSecondReceiverIsToldAtOnceAndTheFirstKeepsEveryElement() {
    let feed = AsyncFeed<Int>()
    let first = Recorder<Int>()
    let second = Recorder<String>()
    let subscription = feed.subscribe(PushReceiver(element: { first.append($0) }, end: { _ in first.append(-1) }))
    let refused = feed.subscribe(
      PushReceiver(
        element: { second.append("element \($0)") },
        end: { error in
          second.append(error is SecondConsumerError ? "SecondConsumerError" : "end \(String(describing: error))")
        }))
    feed.yield(1)
    refused.cancel()  // does nothing: the first subscription goes on
    feed.yield(2)
    feed.finish()
    #expect(second.values == ["SecondConsumerError"])
    #expect(first.values == [1, 2, -1])
    subscription.cancel()
  }

  @Test func subscribingWhileATaskWaitsInNextIsRefusedAndTheTaskKeepsEveryElement() throws {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<Int>()
    let iterated = Recorder<Int>()
    let task = runner.start { for await value in feed { iterated.append(value) } }
    runner.runUntilIdle()
    let ends = Recorder<Bool>()
    _ = feed.subscribe(
      PushReceiver(element: { _ in ends.append(false) }, end: { ends.append($0 is SecondConsumerError) }))
    feed.yield(7)
    feed.finish()
    try runner.finish(task)
    #expect(ends.values == [true])
    #expect(iterated.values == [7])
  }
}
