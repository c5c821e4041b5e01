// Replay: recorded keystrokes enter the pipeline at their recorded instants, in virtual time.
// An hour of typing replays in well under a second, and the output is the same to the byte on
// every run and every machine.
import Streams

/// Replays a recording through a ``SearchPipeline`` on a `VirtualTimeRunner`.
///
/// The driver reads the recording on the calling thread, one line at a time (memory does not
/// grow with the recording), and for each keystroke moves virtual time to its `at_ms`, then
/// feeds it.
///
/// ## Ordering
/// At one instant, timers due then (a debounce deadline, a simulated latency) fire before the
/// keystrokes recorded at that instant are fed: a deadline at t has passed when a key at t
/// arrives.
///
/// ## Bad lines
/// A line without `at_ms`, or whose `at_ms` is earlier than the line before it, is an
/// `input_error` and is skipped; the replay goes on.
public struct ReplayDriver: Sendable {
  let configuration: PipelineConfiguration
  let makeSource: @Sendable (ManualClock) -> any SearchSource

  /// Creates a driver for pipelines with `configuration`, whose source `makeSource` builds on
  /// the replay's clock (so simulated latencies pass in virtual time).
  public init(
    configuration: PipelineConfiguration = PipelineConfiguration(),
    source makeSource: @escaping @Sendable (ManualClock) -> any SearchSource
  ) {
    self.configuration = configuration
    self.makeSource = makeSource
  }

  /// Replays the lines `nextLine` returns until it returns nil, handing each event to `sink`.
  ///
  /// - Returns: the run's summary.
  /// - Throws: what `nextLine` throws (the run is cancelled first, so open searches are
  ///   reported cancelled for `shutdown`), or `VirtualTimeStall` if the pipeline could never
  ///   finish (a bug).
  @discardableResult
  public func run(
    sink: @escaping @Sendable (SearchEvent) -> Void, nextLine: () throws -> InputRecord?
  ) throws -> RunSummary {
    try run(sink: sink, jobCount: nil, nextLine: nextLine)
  }

  /// ``run(sink:nextLine:)``, also reporting how many executor jobs the replay took (the
  /// benchmark's measure of task machinery), and with `stop`, whose request ends a wait for an
  /// answer from outside virtual time: the replay then reads its next line, where the caller's
  /// `nextLine` acts on the stop by throwing, or, its input over, cancels the run.
  package func run(
    sink: @escaping @Sendable (SearchEvent) -> Void, jobCount: ((Int) -> Void)?, stop: ReplayStop? = nil,
    nextLine: () throws -> InputRecord?
  ) throws -> RunSummary {
    // Driven from this thread to the end: on the main thread, main-actor jobs could not run
    // meanwhile in any case, and need not be ordered.
    let runner = VirtualTimeRunner(mainActorOrdering: VirtualTimeRunner.orderingForSynchronousDriveFromHere)
    // This thread feeds the operators and moves time; tasks it starts belong to the run.
    return try runner.onRunner {
      try replay(on: runner, sink: sink, jobCount: jobCount, stop: stop, nextLine: nextLine)
    }
  }

  private func replay(
    on runner: VirtualTimeRunner, sink: @escaping @Sendable (SearchEvent) -> Void, jobCount: ((Int) -> Void)?,
    stop: ReplayStop?, nextLine: () throws -> InputRecord?
  ) throws -> RunSummary {
    let pipeline = SearchPipeline(
      configuration: configuration, source: makeSource(runner.clock), clock: runner.clock, sink: sink)
    // Fed from this thread: each record goes through the operators before the next is read.
    let input = AsyncFeed<InputRecord>()
    let task = runner.start { await pipeline.run(input) }
    stop?.attach(runner)
    runner.runUntilIdle()
    var lastInstant: Int64 = 0
    do {
      while let line = try nextLine() {
        let record = replayed(line, after: &lastInstant)
        if case .keystroke(let keystroke, _) = record, let instant = keystroke.atMilliseconds {
          runner.advanceFromRunner(to: .milliseconds(instant))
        }
        input.yield(record)
        runner.runUntilIdle()
      }
    } catch {
      task.cancel()
      _ = try? runner.finish(task)
      throw error
    }
    input.finish()
    defer { jobCount?(runner.jobCount) }
    if let stop {
      // The end of the input starts its last searches; a stop that ends the wait for their
      // answers cancels them here, so that they end as cancelled instead of timed out.
      runner.runUntilIdle()
      if stop.isRequested { task.cancel() }
    }
    return try runner.finish(task)
  }

  /// `line` as the replay takes it: a keystroke needs an `at_ms` no earlier than the line
  /// before's; one that breaks either rule becomes an input error.
  private func replayed(_ line: InputRecord, after lastInstant: inout Int64) -> InputRecord {
    guard case .keystroke(let keystroke, let number) = line else { return line }
    guard let instant = keystroke.atMilliseconds else {
      return .invalid(line: number, reason: "at_ms is required in replay")
    }
    guard instant >= lastInstant else {
      return .invalid(line: number, reason: "at_ms \(instant) goes backwards (the line before was at \(lastInstant))")
    }
    lastInstant = instant
    return line
  }
}
