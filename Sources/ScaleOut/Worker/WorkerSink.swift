// Where the worker's pipeline hands its events: each is stamped for Redis, looked up in the
// ledger (which keystrokes it accounts for) and put in the outbox, to be encoded by the
// committer. Called under the pipeline's emitter lock, so it only takes its own lock to decide,
// and appends.
import Pipeline

final class WorkerSink: Sendable {
  private let context: WorkerContext
  private let wallClock: any WallClock

  init(context: WorkerContext, wallClock: any WallClock) {
    self.context = context
    self.wallClock = wallClock
  }

  func receive(_ event: SearchEvent) {
    guard let line = event.inputLine, let eventClass = Self.eventClass(of: event.kind) else { return }
    let now = wallClock.millisecondsSinceEpoch
    let item = context.ledger.withLock { ledger in
      // The session is the ledger's: an input error's event names none, its entry did.
      ledger.account(kind: eventClass, pipelineSession: event.session, line: line) { session in
        Self.stamp(event, session: session, at: now)
      }
    }
    if let item { context.outbox.add(item) }
  }

  /// The pipeline forgot an idle session.
  func forgot(pipelineSession name: String) {
    if let item = context.ledger.withLock({ $0.forget(pipelineSession: name) }) { context.outbox.add(item) }
  }

  /// The user's session inside a pipeline session name (`shard|lease|session`); nil for the
  /// unnamed session.
  static func userSession(_ pipelineSession: String) -> String? {
    let parts = pipelineSession.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[2].isEmpty else { return nil }
    return String(parts[2])
  }

  private static func eventClass(of kind: SearchEvent.Kind) -> EventClass? {
    switch kind {
    case .search: .search
    case .results, .error, .cancelled: .end
    case .cleared: .cleared
    case .inputError: .inputError
    case .waiting(_, let category, _): .other("waiting/\(category)")
    case .partial(_, let result): .other("partial/\(result.category.rawValue)")
    case .summary: nil
    }
  }

  /// The event as stored, encoded later: `seq` 0 (a reader numbers what it prints), `at_ms` the
  /// wall clock's milliseconds since 1970 (workers have no common start), the user's session.
  private static func stamp(_ event: SearchEvent, session: String?, at now: Int64) -> EncodedEvent {
    let stamped = SearchEvent(seq: 0, atMilliseconds: now, session: session, kind: event.kind)
    var term: String?
    if case .search(let searched) = event.kind { term = searched }
    return EncodedEvent(type: event.typeName, body: .deferred(stamped), searchTerm: term)
  }

  /// The event's JSON object, without the line's newline.
  static func json(_ event: SearchEvent) -> [UInt8] {
    var bytes: [UInt8] = []
    JSONLinesEncoder().encode(event, into: &bytes)
    if bytes.last == 0x0A { bytes.removeLast() }
    return bytes
  }
}
