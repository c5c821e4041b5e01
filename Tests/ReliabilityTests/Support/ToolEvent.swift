// The tool's JSON Lines output read back into small values the reliability tests assert on.
import Foundation
import TestSupport
import Testing

/// One event line the tool wrote, with the fields the tests look at.
struct ToolEvent: Sendable {
  var type: String
  var seq: Int
  var atMilliseconds: Int
  var term: String?
  var session: String?
  /// `error.kind` on an `error` event.
  var errorKind: String?
  /// `error.message` on an `error` event.
  var errorMessage: String?
  /// `source` on a `results` event: cache, load or joined.
  var source: String?
  /// On `results`: each category's error kind, "ok" for a category that answered.
  var categoryErrors: [String: String]
  /// On `results`: the titles of each category's items.
  var categoryTitles: [String: [String]]
  /// On `results`: each category's `source` (cache, disk, network, stale), absent for a failure.
  var categorySources: [String: String]
  /// `disk` on a `summary`: on or off, absent without a disk tier.
  var disk: String?
  /// `line` on an `input_error`.
  var line: Int?
  /// `reason` on `cancelled` and `input_error`.
  var reason: String?
  /// `category` on `waiting`.
  var category: String?
  /// Integer fields of a `summary`.
  var counts: [String: Int]

  init(line text: Substring) throws {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not an object: \(text)")
    type = try #require(object["type"] as? String)
    seq = try #require(object["seq"] as? Int)
    atMilliseconds = try #require(object["at_ms"] as? Int)
    term = object["term"] as? String
    session = object["session"] as? String
    errorKind = (object["error"] as? [String: Any])?["kind"] as? String
    errorMessage = (object["error"] as? [String: Any])?["message"] as? String
    source = object["source"] as? String
    line = object["line"] as? Int
    reason = object["reason"] as? String
    category = object["category"] as? String
    counts = object.compactMapValues { $0 as? Int }
    disk = object["disk"] as? String
    categoryErrors = [:]
    categoryTitles = [:]
    categorySources = [:]
    for category in object["categories"] as? [[String: Any]] ?? [] {
      guard let name = category["category"] as? String else { continue }
      categoryErrors[name] = (category["error"] as? [String: Any])?["kind"] as? String ?? "ok"
      let items = category["items"] as? [[String: Any]] ?? []
      categoryTitles[name] = items.compactMap { $0["title"] as? String }
      categorySources[name] = category["source"] as? String
    }
  }

  /// True for the events that end a search: results, error, cancelled.
  var isTerminal: Bool { ["results", "error", "cancelled"].contains(type) }

  /// A short rendering for comparing sequences: "error boom rateLimited", "results good load".
  var brief: String {
    switch type {
    case "search": "search \(term ?? "")"
    case "results": "results \(term ?? "") \(source ?? "")"
    case "error": "error \(term ?? "") \(errorKind ?? "")"
    case "cancelled": "cancelled \(term ?? "") \(reason ?? "")"
    case "input_error": "input_error \(line ?? 0)"
    case "waiting": "waiting \(term ?? "") \(category ?? "") \(counts["wait_ms"] ?? -1)"
    default: type
    }
  }
}

/// Every event of `stdout`, one per line.
func toolEvents(_ stdout: String) throws -> [ToolEvent] {
  try stdout.split(separator: "\n").map { try ToolEvent(line: $0) }
}

/// The stand-in's `count` items for a term, as JSON: titles "<term> 0", "<term> 1", …
func answerBody(for term: String, count: Int = 1) -> Data {
  let items = (0..<count).map { index in
    #"{"trackId":\#(index + 1),"trackName":\#(jsonString("\(term) \(index)")),"kind":"song"}"#
  }
  return Data(#"{"resultCount":\#(count),"results":[\#(items.joined(separator: ","))]}"#.utf8)
}

/// The sessions whose searches do not each end in exactly one terminal event: per session, the
/// searches and terminal events must alternate (search, its end, search, …), each end naming its
/// search's term. Empty when every search ended once.
func sessionsWithUnpairedSearches(_ events: [ToolEvent]) -> [String] {
  let flow = events.filter { $0.type == "search" || $0.isTerminal }
  return Dictionary(grouping: flow, by: { $0.session ?? "" }).compactMap { session, events in
    let paired =
      events.count % 2 == 0
      && stride(from: 0, to: events.count, by: 2).allSatisfy { index in
        events[index].type == "search" && events[index + 1].isTerminal && events[index + 1].term == events[index].term
      }
    return paired ? nil : session
  }.sorted()
}
