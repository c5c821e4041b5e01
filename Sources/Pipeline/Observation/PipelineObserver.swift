// The observer port: a program's code that reacts to the pipeline, called with no lock held so
// that it may call back into the pipeline or take locks of its own.

/// Told each ``PipelineObservation`` of a run.
///
/// Called on the pipeline's threads, possibly on several at once: an observer keeps its own state
/// safe (a `Mutex`, atomics). No lock of the pipeline's is held during the call, so an observer
/// may do anything but block for long: the thread it runs on carries a keystroke or an answer.
public protocol PipelineObserver: Sendable {
  /// One thing happened.
  func observe(_ observation: PipelineObservation)
}

/// An observer made of a closure.
///
/// ```swift
/// var configuration = PipelineConfiguration()
/// configuration.observers.append(ClosureObserver { observation in
///   if case .requestSent = observation { requests.add(1, ordering: .relaxed) }
/// })
/// ```
public struct ClosureObserver: PipelineObserver {
  private let body: @Sendable (PipelineObservation) -> Void

  /// An observer that calls `body` with each observation.
  public init(_ body: @escaping @Sendable (PipelineObservation) -> Void) {
    self.body = body
  }

  /// Calls the closure.
  public func observe(_ observation: PipelineObservation) {
    body(observation)
  }
}

/// The observers of one configuration, told in order; building an observation costs nothing when
/// there are none (the common case: a replay, a plain run).
struct Observers: Sendable {
  let all: [any PipelineObserver]

  init(_ all: [any PipelineObserver]) {
    self.all = all
  }

  var isEmpty: Bool { all.isEmpty }

  /// Tells every observer what `make` builds, built only if someone listens.
  @inline(__always)
  func tell(_ make: () -> PipelineObservation) {
    guard !all.isEmpty else { return }
    let observation = make()
    for observer in all { observer.observe(observation) }
  }

  /// The sink that hands each event to `sink`, then tells the observers what it stands for.
  func wrapping(_ sink: @escaping @Sendable (SearchEvent) -> Void) -> @Sendable (SearchEvent) -> Void {
    guard !all.isEmpty else { return sink }
    let observers = self
    return { event in
      sink(event)
      guard let observation = PipelineObservation(event: event) else { return }
      for observer in observers.all { observer.observe(observation) }
    }
  }
}
