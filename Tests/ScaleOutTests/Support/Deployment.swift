// A deployment for the tests: a real redis-server, the built binary as workers, `publish` and
// `events`, and a direct connection to look at what is stored. Workers answer from a six-item
// catalog file, so that they start in a blink even in a debug build.
import Foundation
import RESP
import TestSupport
import Testing

@testable import ScaleOut

/// One prefix on one server, and the commands that use it.
struct Deployment {
  let server: RedisServer
  let prefix: String
  let shards: Int

  /// The bound of every wait for an outcome: generous, since the machine may be loaded; a wait
  /// that ends early is the normal case.
  static let patience = Duration.seconds(120)

  init(server: RedisServer, prefix: String = "t", shards: Int = 4) {
    self.server = server
    self.prefix = prefix
    self.shards = shards
  }

  var keys: ScaleOutKeys {
    get throws { try ScaleOutKeys(prefix: prefix) }
  }

  private var redisArguments: [String] { ["--redis", server.url, "--redis-prefix", prefix] }

  /// Starts a worker with `--verbose` (its stderr says which shards it takes), answering from a
  /// small catalog file unless `source` names another source.
  func worker(_ name: String, lease: String = "1s", source: String? = nil, extra: [String] = []) throws
    -> ToolProcess
  {
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    let answering = source.map { ["--source", $0] } ?? ["--catalog", catalog]
    return try ToolProcess(
      toolBinary(),
      arguments: ["worker"] + redisArguments + [
        "--shards", String(shards), "--name", name, "--lease", lease, "--verbose",
      ] + answering + extra)
  }

  /// Shard → the name of the worker holding its lease.
  func holders() throws -> [Int: String] {
    let connection = try self.connection()
    defer { connection.close() }
    let keys = try self.keys
    let reply = try connection.call(RESPCommand("MGET", arguments: (0..<shards).map { keys.lease(shard: $0) }))
    var holders: [Int: String] = [:]
    for (shard, value) in (reply.array ?? []).enumerated() {
      if let lease = value.string, let name = lease.split(separator: ":", maxSplits: 1).last {
        holders[shard] = String(name)
      }
    }
    return holders
  }

  /// Publishes `lines` (keystroke lines as the tool reads them) and waits for `publish` to exit.
  func publish(_ lines: [String], extra: [String] = []) async throws -> SubprocessResult {
    try await Subprocess.run(
      toolBinary(), arguments: ["publish"] + redisArguments + ["--shards", String(shards)] + extra,
      input: Data(lines.map { $0 + "\n" }.joined().utf8))
  }

  /// `events` run once: the events there now, parsed.
  func events(extra: [String] = []) async throws -> [Event] {
    let result = try await Subprocess.run(toolBinary(), arguments: ["events"] + redisArguments + extra)
    #expect(result.status == 0, "events: \(result.stderr)")
    return result.stdout.split(separator: "\n").compactMap { Event(line: String($0)) }
  }

  /// `events --follow`, running.
  func followEvents() throws -> ToolProcess {
    try ToolProcess(toolBinary(), arguments: ["events"] + redisArguments + ["--follow"])
  }

  /// Waits until every session in `sessions` has its last search ended with `results` for
  /// `term`, as `events --follow` shows it.
  static func waitForResults(
    _ follower: ToolProcess, sessions: Set<String>, term: String, within limit: Duration = patience
  ) async -> Bool {
    await follower.waitForOutput(within: limit) { lines in
      var answered = Set<String>()
      for line in lines {
        guard let event = Event(line: line), event.type == "results", event.term == term, let session = event.session
        else { continue }
        answered.insert(session)
      }
      return sessions.isSubset(of: answered)
    }
  }

  /// The raw entries of every shard's event stream: (shard, key, type, session).
  func storedEvents() throws -> [(shard: Int, key: String, type: String, session: String?)] {
    let connection = try RESPConnection(endpoint: server.endpoint)
    defer { connection.close() }
    let keys = try self.keys
    var all: [(Int, String, String, String?)] = []
    for shard in 0..<shards {
      let reply = try connection.call(RESPCommand("XRANGE", keys.events(shard: shard), "-", "+"))
      for entry in reply.array ?? [] {
        let fields = entry.array?.last?.array?.compactMap(\.string) ?? []
        var map: [String: String] = [:]
        for index in stride(from: 0, to: fields.count - 1, by: 2) { map[fields[index]] = fields[index + 1] }
        all.append((shard, map["key"] ?? "", map["type"] ?? "", map["session"]))
      }
    }
    return all
  }

  /// A direct connection, for looking at keys.
  func connection() throws -> RESPConnection { try RESPConnection(endpoint: server.endpoint) }
}

/// One line of `events`' output, the fields the tests look at.
struct Event: Equatable {
  let type: String
  let seq: Int
  let session: String?
  let term: String?
  let reason: String?

  init?(line: String) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let type = object["type"] as? String
    else { return nil }
    self.type = type
    seq = object["seq"] as? Int ?? -1
    session = object["session"] as? String
    term = object["term"] as? String
    reason = object["reason"] as? String
  }
}

/// Checks the guarantees on one session's events, in order: every search is followed by exactly
/// one end (results, error or cancelled) before the next search or clear, and the last search
/// ends with `results` for `lastTerm`. Returns what is wrong, or nil.
func problems(in events: [Event], lastTerm: String) -> String? {
  var open: String?
  for event in events {
    switch event.type {
    case "search":
      if let open { return "search \(event.term ?? "") while \(open) was open: \(events.map(\.type))" }
      open = event.term
    case "results", "error", "cancelled":
      guard open == event.term else {
        return "\(event.type) \(event.term ?? "") without its search: \(events.map(\.type))"
      }
      open = nil
    case "cleared":
      if let open { return "cleared while \(open) was open" }
    default:
      break
    }
  }
  if let open { return "\(open) never ended" }
  guard let last = events.last(where: { $0.type == "results" }), last.term == lastTerm else {
    return "the last results are not for \(lastTerm): \(events.map { "\($0.type) \($0.term ?? "")" })"
  }
  return nil
}

/// Every end, clear and input error of the raw streams is stored once (by its key).
func endsStoredOnce(_ stored: [(shard: Int, key: String, type: String, session: String?)]) -> [String] {
  let ends = stored.filter { ["results", "error", "cancelled", "cleared", "input_error"].contains($0.type) }
  var counts: [String: Int] = [:]
  for end in ends { counts["\(end.shard)/\(end.key)", default: 0] += 1 }
  return counts.filter { $0.value > 1 }.map(\.key).sorted()
}
