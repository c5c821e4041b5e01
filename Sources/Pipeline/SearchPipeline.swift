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
/// let (events, sink) = AsyncStream.makeStream(of: SearchEvent.self)  // the screen reads `events`
/// let pipeline = SearchPipeline(source: CatalogSource(), clock: ContinuousClock()) { event in
///   sink.yield(event)
/// }
/// let summary = await pipeline.run(keystrokes)
/// sink.finish()
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
    // Observers hear of a search's life from the events themselves, after the sink: the emitter
    // calls it with no lock held, one event at a time, in seq order.
    emitter = EventEmitter(clock: clock, sink: Observers(configuration.observers).wrapping(sink))
  }

  /// Runs the pipeline over `inputs` until they finish and every search has ended, or until
  /// cancelled; returns the summary it emitted last.
  ///
  /// The one way in, for live input, replay and tests alike. Inputs that can be pushed (an
  /// `AsyncFeed`, see `PushableAsyncSequence`) are taken on the thread that feeds them, straight
  /// through the sessions' operators, with no task per line: a replay's driving thread feeds
  /// one that way. Any other sequence is iterated by this task, which hands each record to the
  /// operators before it reads the next, so input never runs ahead of the pipeline.
  // Specialised here for a live clock fed by an AsyncFeed (a worker): a caller in another module
  // gets this copy, with every operator below it specialised, instead of the generic one, which
  // looks up the operators' generic types at each keystroke (in a worker, about 40 % of its CPU).
  @discardableResult
  @_specialize(exported:true,where C == ContinuousClock, Inputs == AsyncFeed<InputRecord>)
  public func run<Inputs: AsyncSequence & Sendable>(_ inputs: Inputs) async -> RunSummary
  where Inputs.Element == InputRecord {
    let session = SessionPipeline(
      configuration: configuration,
      fanOut: CategoryFanOut(repository: repository, configuration: configuration, clock: clock),
      emitter: emitter, clock: clock)
    let inlet = PipelineInlet(configuration: configuration, session: session, emitter: emitter, clock: clock)
    await withTaskCancellationHandler {
      if let pushed = inputs as? any PushableAsyncSequence<InputRecord> {
        let subscription = pushed.subscribe(
          PushReceiver(
            element: { inlet.send($0) }, end: { _ in inlet.finish() }))
        await inlet.ended()
        subscription.cancel()
      } else {
        do {
          for try await input in inputs { inlet.send(input) }
        } catch {
          // A failing input ends the input: what was read is still answered.
        }
        inlet.finish()
        await inlet.ended()
      }
    } onCancel: {
      // Answers arriving while the sessions are stopped one by one are not their searches' ends.
      emitter.stop()
      inlet.cancel()
    }
    if Task.isCancelled { emitter.cancelOpenSearches() }
    let disk = await repository.diskSummary
    return await emitter.emitSummary(
      inputLines: inlet.inputLines, requests: repository.requests, cacheHits: repository.cacheHits, disk: disk)
  }
}
