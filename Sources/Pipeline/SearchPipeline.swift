// The search pipeline's entry point: keystrokes of any number of sessions in, events out.
import Streams
import Synchronization

/// Turns the texts of search fields into search events.
///
/// Each session (the `session` a keystroke names; keystrokes that name none form one session)
/// gets its own debounce, distinct and cancel-previous state; all share one cache and one rate
/// limiter, so one process can serve many users' search fields. A session with no input for
/// ``PipelineConfiguration/sessionIdleTimeout`` is forgotten.
///
/// ```swift
/// let pipeline = SearchPipeline(source: CatalogSource(), clock: ContinuousClock()) { event in
///   print(event)
/// }
/// let summary = await pipeline.run(keystrokes)
/// ```
///
/// ## Events
/// Every `search` is followed by exactly one `results`, `error` or `cancelled` for it. The
/// summary comes last. See docs/events.md.
///
/// ## Finish, failure and cancellation
/// - When the input finishes, pending terms settle at once, the last searches complete, and
///   the summary is emitted.
/// - An input that throws ends the input there, as a finish does.
/// - When the task running ``run(_:)`` is cancelled, reading stops, searches in flight are
///   cancelled and reported as `cancelled` with reason `shutdown`, and the summary is emitted.
public struct SearchPipeline<C: Clock>: Sendable where C.Duration == Duration {
  let configuration: PipelineConfiguration
  let repository: SearchRepository<C>
  let emitter: EventEmitter<C>
  let clock: C

  /// Creates a pipeline that asks `source`, waits on `clock`, and hands each event to `sink`
  /// as it happens (on the task that produced it; calls never overlap).
  public init(
    configuration: PipelineConfiguration = PipelineConfiguration(), source: any SearchSource, clock: C,
    sink: @escaping @Sendable (SearchEvent) -> Void
  ) {
    self.configuration = configuration
    self.clock = clock
    repository = SearchRepository(source: source, configuration: configuration, clock: clock)
    emitter = EventEmitter(clock: clock, sink: sink)
  }

  /// Runs the pipeline over `inputs` until they finish and every search has ended, or until
  /// cancelled; returns the summary it emitted last.
  @discardableResult
  public func run<Inputs: AsyncSequence & Sendable>(_ inputs: Inputs) async -> RunSummary
  where Inputs.Element == PipelineInput {
    let inlet = makeInlet()
    return await run(inlet) {
      do {
        for try await input in inputs { inlet.send(input) }
      } catch {
        // A failing input ends the input: what was read is still answered.
      }
      inlet.finish()
    }
  }

  /// An inlet for ``run(_:reading:)``, fed by a caller that routes input itself.
  func makeInlet() -> PipelineInlet<C> {
    PipelineInlet(configuration: configuration, emitter: emitter, clock: clock)
  }

  /// Runs a session for every session `inlet` starts, and `reading` (if any) beside them,
  /// until the inlet is finished and every search has ended, or until cancelled.
  func run(
    _ inlet: PipelineInlet<C>, reading: (@Sendable () async -> Void)? = nil
  ) async -> RunSummary {
    let session = SessionPipeline(
      configuration: configuration,
      fanOut: CategoryFanOut(repository: repository, configuration: configuration, clock: clock),
      emitter: emitter, clock: clock)
    await withDiscardingTaskGroup { group in
      if let reading { group.addTask(operation: reading) }
      for await start in inlet.sessionStarts {
        group.addTask { await session.run(start.terms, session: start.session) }
      }
    }
    if Task.isCancelled { emitter.cancelOpenSearches() }
    let disk = await repository.diskSummary
    return emitter.emitSummary(requests: repository.requests, cacheHits: await repository.cacheHits, disk: disk)
  }
}
