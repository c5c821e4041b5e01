// Replay: recorded keystrokes enter the pipeline at their recorded instants, in virtual time.
// An hour of typing replays in well under a second, and the output is the same to the byte on
// every run and every machine.
import Streams

/// One recorded line for a replay: a keystroke with its instant, or a line that was not one.
public enum ReplayLine: Sendable, Equatable {
  /// A keystroke; replay requires its `atMilliseconds`.
  case keystroke(Keystroke, line: Int)
  /// A line that could not be read as a keystroke.
  case invalid(line: Int, reason: String)
}

/// Replays a recording through a ``SearchPipeline`` on a ``VirtualTimeRunner``.
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
  ///   reported cancelled for `shutdown`), or ``VirtualTimeStall`` if the pipeline could never
  ///   finish (a bug).
  @discardableResult
  public func run(
    sink: @escaping @Sendable (SearchEvent) -> Void, nextLine: () throws -> ReplayLine?
  ) throws -> RunSummary {
    let runner = VirtualTimeRunner()
    let pipeline = SearchPipeline(
      configuration: configuration, source: makeSource(runner.clock), clock: runner.clock, sink: sink)
    // Routed on this thread, straight into the sessions' feeds (see PipelineInlet for why).
    let inlet = pipeline.makeInlet()
    let task = runner.start { await pipeline.run(inlet) }
    runner.runUntilIdle()
    var lastInstant: Int64 = 0
    do {
      while let line = try nextLine() {
        switch line {
        case .invalid(let number, let reason):
          inlet.send(.invalid(line: number, reason: reason))
        case .keystroke(let keystroke, let number):
          guard let instant = keystroke.atMilliseconds else {
            inlet.send(.invalid(line: number, reason: "at_ms is required in replay"))
            break
          }
          guard instant >= lastInstant else {
            inlet.send(.invalid(
              line: number, reason: "at_ms \(instant) goes backwards (the line before was at \(lastInstant))"))
            break
          }
          lastInstant = instant
          runner.advance(to: .milliseconds(instant))
          inlet.send(.keystroke(keystroke))
        }
        runner.runUntilIdle()
      }
    } catch {
      task.cancel()
      _ = try? runner.finish(task)
      throw error
    }
    inlet.finish()
    return try runner.finish(task)
  }
}
