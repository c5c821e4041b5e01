// Collects a pipeline's events for assertions, and renders them compactly.
import Pipeline
import Synchronization

final class EventLog: Sendable {
  private let storage = Mutex<[SearchEvent]>([])

  var sink: @Sendable (SearchEvent) -> Void { { [self] event in storage.withLock { $0.append(event) } } }
  var events: [SearchEvent] { storage.withLock { $0 } }

  /// One short line per event: "search taylor@300", "results taylor load@701", …
  var lines: [String] { events.map(Self.describe) }

  static func describe(_ event: SearchEvent) -> String {
    let session = event.session.map { "[\($0)] " } ?? ""
    let body: String
    switch event.kind {
    case .search(let term): body = "search \(term)"
    case .results(let term, let source, _, _): body = "results \(term) \(source.rawValue)"
    case .cleared: body = "cleared"
    case .cancelled(let term, let reason): body = "cancelled \(term) \(reason.rawValue)"
    case .error(let term, let error): body = "error \(term) \(error.kind)"
    case .inputError(let line, _): body = "input_error \(line)"
    case .partial(let term, let result): body = "partial \(term) \(result.category.rawValue)"
    case .waiting(let term, let category, let wait): body = "waiting \(term) \(category) \(wait)"
    case .summary: body = "summary"
    }
    return "\(session)\(body)@\(event.atMilliseconds)"
  }
}
