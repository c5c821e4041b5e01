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
  public func run<Inputs: AsyncSequence>(_ inputs: Inputs) async -> RunSummary
  where Inputs.Element == PipelineInput {
    let session = SessionPipeline(
      configuration: configuration,
      fanOut: CategoryFanOut(repository: repository, configuration: configuration, clock: clock),
      emitter: emitter, clock: clock)
    await withDiscardingTaskGroup { group in
      var router = SessionRouter<C>(idleTimeout: configuration.sessionIdleTimeout, clock: clock)
      do {
        for try await input in inputs {
          emitter.countInputLine()
          switch input {
          case .invalid(let line, let reason):
            emitter.emit(.inputError(line: line, reason: reason), session: nil)
          case .keystroke(let keystroke):
            var term = SearchTerm(keystroke.term)
            if term.isBelow(minimumLength: configuration.minimumTermLength) { term = SearchTerm("") }
            router.send(term, to: keystroke.session) { terms in
              group.addTask { await session.run(terms, session: keystroke.session) }
            }
            for forgotten in router.forgetIdleSessions() {
              configuration.log?(.sessionForgotten(forgotten))
            }
          }
        }
      } catch {
        // A failing input ends the input: what was read is still answered.
      }
      router.finishAll()
    }
    if Task.isCancelled { emitter.cancelOpenSearches() }
    return emitter.emitSummary(requests: repository.requests, cacheHits: await repository.cacheHits)
  }

  /// Reports a bad input line found before the pipeline (e.g. by a replay driver).
  public func reportInputError(line: Int, reason: String) {
    emitter.countInputLine()
    emitter.emit(.inputError(line: line, reason: reason), session: nil)
  }
}
