// A pushed operator chain (AsyncFeed → debounce → removeDuplicates → switchMap) on the thread
// that feeds it: no executor job for an element answered at once, and cancelling it stops its
// timer and its child. Pulled or pushed, it is the same stage, so nothing here compares the two.
import Streams
import StreamsTesting
import Testing

/// One thing the chain under test did, with its instant: "started tay@300", "tay@700".
private func describe(_ event: SwitchMapEvent<String, String>, at instant: Int64) -> String {
  switch event {
  case .started(let term): "started \(term)@\(instant)"
  case .output(let output): "\(output)@\(instant)"
  case .cancelled(let term, by: let newer): "cancelled \(term) by \(newer)@\(instant)"
  }
}

/// The chain of the pipeline in miniature: an empty text passes at once, letters wait 300 ms,
/// repeats are dropped, and a "search" answers at once for a short term and after 400 ms else.
private func chain<Base: AsyncSequence & Sendable>(_ base: Base, clock: ManualClock)
  -> AsyncSwitchMapSequence<AsyncRemoveDuplicatesSequence<AsyncDebounceSequence<Base, ManualClock>, String>, String>
where Base.Element == String {
  base
    .debounce(clock: clock) { $0.isEmpty ? .zero : .milliseconds(300) }
    .removeDuplicates(by: { $0.lowercased() })
    .switchMap(starting: { term, emit in
      if term.count < 3 {
        emit("at once \(term)")
        return .finished
      }
      return .task {
        guard (try? await clock.sleep(for: .milliseconds(400))) != nil else { return }
        emit("loaded \(term)")
      }
    })
}

@Suite struct PushedChainTests {
  @Test func aPushedChainCostsNoJobForElementsAnsweredAtOnce() {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<String>()
    let outputs = Recorder<String>()
    let subscription = runner.onRunner {
      chain(feed, clock: runner.clock).subscribe(
        PushReceiver(
          element: { if case .output(let output) = $0 { outputs.append(output) } }, end: { _ in }))
    }
    for step in 0..<1_000 {
      runner.advance(to: .milliseconds(Int64(step) * 400))
      runner.onRunner { feed.yield(step.isMultiple(of: 2) ? "ab" : "xy") }
    }
    runner.advance(by: .seconds(1))
    // 1,000 debounced terms, every one answered in its synchronous start: no task, no job.
    #expect(outputs.values.count == 1_000)
    #expect(runner.jobCount == 0)
    subscription.cancel()
  }

  @Test func cancellingAPushedChainCancelsItsTimerAndItsChild() {
    let runner = VirtualTimeRunner()
    let feed = AsyncFeed<String>()
    let seen = Recorder<String>()
    let subscription = runner.onRunner {
      chain(feed, clock: runner.clock).subscribe(
        PushReceiver(
          element: { seen.append(describe($0, at: runner.now.milliseconds)) }, end: { _ in seen.append("end") }))
    }
    runner.onRunner { feed.yield("taylor") }
    runner.advance(to: .milliseconds(300))  // the search for "taylor" is in flight
    runner.onRunner { feed.yield("zimmer") }  // its debounce timer is pending
    subscription.cancel()
    runner.advance(by: .seconds(5))
    #expect(seen.values == ["started taylor@300"])
    #expect(runner.clock.sleeperCount == 0)
  }
}
