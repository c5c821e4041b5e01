// `GET /search?q=TERM[&categories=LIST][&limit=N]`: one search through the shared pipeline, no
// debounce, answered with its `results` (or `error`) event as JSON. A bad parameter is a 400 whose
// one-line JSON body names it.
import Pipeline
import Streams
import WebServer

/// Answers `/search` requests.
struct SearchEndpoint: Sendable {
  let sessions: SocketSessions
  let feed: AsyncFeed<InputRecord>
  /// The categories the pipeline searches; a request may ask for some of them.
  let categories: [Category]
  /// Items per category the pipeline answers with; a request may ask for fewer.
  let limit: Int

  func answer(_ request: HTTPRequest) async -> HTTPResponse {
    guard let term = request.queryValue("q"), !term.allSatisfy(\.isWhitespace) else {
      return Self.badParameter("q", "expected the text to search, e.g. q=taylor")
    }
    var wanted = categories
    if let list = request.queryValue("categories") {
      var chosen: [Category] = []
      for name in list.split(separator: ",", omittingEmptySubsequences: false) {
        guard let category = categories.first(where: { $0.rawValue == name }) else {
          let served = categories.map(\.rawValue).joined(separator: ",")
          return Self.badParameter("categories", "expected some of \(served)")
        }
        if !chosen.contains(category) { chosen.append(category) }
      }
      wanted = chosen
    }
    var count = limit
    if let text = request.queryValue("limit") {
      guard let number = Int(text), (1...limit).contains(number) else {
        return Self.badParameter("limit", "expected a whole number from 1 to \(limit)")
      }
      count = number
    }
    var event = await sessions.searchOnce(term, feed: feed)
    if case .results(let term, let source, let results, let elapsed) = event.kind {
      let kept = results.filter { wanted.contains($0.category) }.map { result in
        guard case .items(let items, let origin) = result.outcome, items.count > count else { return result }
        return CategoryResult(category: result.category, outcome: .items(Array(items.prefix(count)), from: origin))
      }
      event.kind = .results(term: term, source: source, categories: kept, elapsedMilliseconds: elapsed)
    }
    // Encoded once, straight into the body's bytes: the newline is the only byte taken off.
    var body = JSONLinesEncoder.line(event)
    body.removeLast()
    var headers = HTTPHeaders()
    headers.set("Content-Type", "application/json")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(status: 200, headers: headers, body: body)
  }

  /// A 400 with `{"error":{"parameter":…,"message":…}}` on one line.
  static func badParameter(_ name: String, _ message: String) -> HTTPResponse {
    .json(#"{"error":{"parameter":"\#(name)","message":"\#(message)"}}"#, status: 400)
  }
}
