// switchMap's pending children (`.pending(cancel:)`): a child that goes on by callbacks of its
// own, with no task, and says when it has returned. Pushed from a feed, on a ManualClock whose
// scheduled calls stand for the callbacks.
import Streams
import StreamsTesting
import Testing

@Suite struct SwitchMapPendingTests {
  /// A chain whose child answers "<term> done" `after` from its start, through a ClockWake, then
  /// finishes; a term "now" answers and finishes in its start. Records cancels in `cancels`.
  private func subscribe(
    _ feed: AsyncFeed<String>, clock: ManualClock, after: Duration, seen: Recorder<String>, cancels: Recorder<String>
  ) -> PushSubscription {
    feed.switchMap(starting: { (term: String, emit: SwitchMapEmitter<String>) in
      if term == "now" {
        emit("now done")
        emit.finish()
        return .pending(cancel: { cancels.append("now") })
      }
      let wake = ClockWake.schedule(on: clock, at: clock.now.advanced(by: after)) {
        emit("\(term) done")
        emit.finish()
      }
      return .pending(cancel: {
        cancels.append(term)
        wake.cancel()
      })
    }).subscribe(
      PushReceiver(
        element: { event in
          switch event {
          case .started(let term): seen.append("started \(term)@\(clock.now.offset.wholeMilliseconds)")
          case .output(let output): seen.append("\(output)@\(clock.now.offset.wholeMilliseconds)")
          case .cancelled(let term, by: let newer): seen.append("cancelled \(term) by \(newer)")
          }
        },
        end: { _ in seen.append("end@\(clock.now.offset.wholeMilliseconds)") }))
  }

  @Test func aPendingChildEndsWhenItSaysSoAndTheSequenceEndsAfterIt() {
    let clock = ManualClock()
    let (seen, cancels) = (Recorder<String>(), Recorder<String>())
    let feed = AsyncFeed<String>()
    let subscription = subscribe(feed, clock: clock, after: .milliseconds(100), seen: seen, cancels: cancels)
    feed.yield("tay")
    feed.finish()
    #expect(seen.values == ["started tay@0"])
    clock.advance(to: .milliseconds(100))
    #expect(seen.values == ["started tay@0", "tay done@100", "end@100"])
    #expect(cancels.values == [])
    subscription.cancel()
  }

  @Test func aNewerElementCancelsThePendingChildOnceAndItsLaterOutputIsDropped() {
    let clock = ManualClock()
    let (seen, cancels) = (Recorder<String>(), Recorder<String>())
    let feed = AsyncFeed<String>()
    let subscription = subscribe(feed, clock: clock, after: .milliseconds(100), seen: seen, cancels: cancels)
    feed.yield("tay")
    clock.advance(to: .milliseconds(50))
    feed.yield("taylor")
    #expect(cancels.values == ["tay"])
    clock.advance(to: .milliseconds(150))
    #expect(seen.values == ["started tay@0", "cancelled tay by taylor", "started taylor@50", "taylor done@150"])
    #expect(cancels.values == ["tay"])
    subscription.cancel()
  }

  @Test func aPendingChildThatFinishedInItsStartIsNeverCancelled() {
    let clock = ManualClock()
    let (seen, cancels) = (Recorder<String>(), Recorder<String>())
    let feed = AsyncFeed<String>()
    let subscription = subscribe(feed, clock: clock, after: .milliseconds(100), seen: seen, cancels: cancels)
    feed.yield("now")
    feed.yield("tay")
    feed.finish()
    clock.advance(to: .milliseconds(100))
    #expect(seen.values == ["started now@0", "now done@0", "started tay@0", "tay done@100", "end@100"])
    #expect(cancels.values == [])
    subscription.cancel()
  }

  @Test func cancellingTheSubscriptionCancelsThePendingChild() {
    let clock = ManualClock()
    let (seen, cancels) = (Recorder<String>(), Recorder<String>())
    let feed = AsyncFeed<String>()
    let subscription = subscribe(feed, clock: clock, after: .milliseconds(100), seen: seen, cancels: cancels)
    feed.yield("tay")
    subscription.cancel()
    #expect(cancels.values == ["tay"])
    clock.advance(to: .milliseconds(100))
    #expect(seen.values == ["started tay@0"])
    #expect(clock.sleeperCount == 0)
  }
}
