// The workers of one benchmark deployment on the benchmark's Redis, and the CPU time and memory
// of processes as Linux reports them: what the scale-out section starts, polls and measures.
import Foundation
import RESP
import ScaleOut
import TestSupport

/// Workers of one deployment (one prefix) on the benchmark's server, and what the benchmark
/// asks Redis about them.
final class Cluster {
  let tool: URL
  let server: RedisServer
  let keys: ScaleOutKeys
  private var workers: [ToolProcess] = []
  private let probe: RESPConnection

  init(tool: URL, server: RedisServer, prefix: String) throws {
    self.tool = tool
    self.server = server
    keys = try ScaleOutKeys(prefix: prefix)
    probe = try RESPConnection(endpoint: server.endpoint)
  }

  var redisArguments: [String] {
    ["--redis", server.url, "--redis-prefix", keys.prefix, "--shards", String(ScaleOutSection.shards)]
  }

  func connection() throws -> RESPConnection { try RESPConnection(endpoint: server.endpoint) }

  @discardableResult
  func startWorker(_ name: String) throws -> ToolProcess {
    let worker = try ToolProcess(
      tool, arguments: ["worker"] + redisArguments + ["--name", name, "--cache-dir", "none"])
    workers.append(worker)
    return worker
  }

  func stopAll() {
    for worker in workers { worker.stop() }
    probe.close()
  }

  /// The CPU time (user + system) the running workers have used so far, in seconds.
  func workersCPU() -> Double {
    workers.reduce(0) { $0 + ProcessCPU.seconds(of: $1.processIdentifier) }
  }

  /// Shard → the name of the worker whose lease it is under.
  func holders() throws -> [Int: String] {
    let shards = Array(0..<ScaleOutSection.shards)
    let reply = try probe.call(RESPCommand("MGET", arguments: shards.map { keys.lease(shard: $0) }))
    var holders: [Int: String] = [:]
    for (shard, value) in zip(shards, reply.array ?? []) {
      if let lease = value.string, let name = lease.split(separator: ":", maxSplits: 1).last {
        holders[shard] = String(name)
      }
    }
    return holders
  }

  /// Waits until every shard is held and `workers` workers each hold their fair share.
  func waitUntilBalanced(workers: Int) async throws {
    let fair = ScaleOutSection.shards / workers
    try await waitFor("\(workers) workers to share the shards") {
      let holders = try self.holders()
      let counts = Dictionary(grouping: holders.values, by: { $0 }).mapValues(\.count)
      return holders.count == ScaleOutSection.shards && counts.count == workers
        && counts.values.allSatisfy { $0 >= fair }
    }
  }

  /// Waits until `shards` hold at least `count` keystrokes, every one of them read by the group
  /// and none pending: each answered, its search's end committed.
  func waitUntilAnswered(shards: [Int], atLeast count: Int) async throws {
    try await waitFor("\(count) keystrokes to be answered") {
      var added = 0
      for shard in shards {
        let stream = try self.probe.call(RESPCommand("XINFO", "STREAM", self.keys.keystrokes(shard: shard)))
        guard let streamInfo = Self.fields(stream), let entries = streamInfo["entries-added"]?.integer else {
          continue
        }
        added += Int(entries)
        let groups = try self.probe.call(RESPCommand("XINFO", "GROUPS", self.keys.keystrokes(shard: shard)))
        guard let group = (groups.array ?? []).first.flatMap(Self.fields),
          group["entries-read"]?.integer == entries, group["pending"]?.integer == 0
        else { return false }
      }
      return added >= count
    }
  }

  /// How many events were ever appended to the event streams of `shards`.
  func eventsAdded(shards: [Int]) throws -> Int {
    var count = 0
    for shard in shards {
      let stream = try probe.call(RESPCommand("XINFO", "STREAM", keys.events(shard: shard)))
      count += Int(Self.fields(stream)?["entries-added"]?.integer ?? 0)
    }
    return count
  }

  /// How many `results` events the event streams of `shards` hold.
  func resultCount(shards: [Int]) throws -> Int {
    var count = 0
    for shard in shards {
      let entries = try probe.call(RESPCommand("XRANGE", keys.events(shard: shard), "-", "+")).array ?? []
      for entry in entries {
        let fields = entry.array?.last?.array?.compactMap(\.string) ?? []
        if let index = fields.firstIndex(of: "type"), index + 1 < fields.count, fields[index + 1] == "results" {
          count += 1
        }
      }
    }
    return count
  }

  private func waitFor(_ what: String, _ condition: () throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: ScaleOutSection.patience)
    while try !condition() {
      guard clock.now < deadline else { throw BenchmarkFailure(description: "timed out waiting for \(what)") }
      try await clock.sleep(for: .milliseconds(10))
    }
  }

  /// A flat `[field, value, …]` reply as a dictionary; nil for anything else (e.g. no such key).
  private static func fields(_ value: RESPValue) -> [String: RESPValue]? {
    guard let array = value.array else { return nil }
    var fields: [String: RESPValue] = [:]
    for index in stride(from: 0, to: array.count - 1, by: 2) {
      if let name = array[index].string { fields[name] = array[index + 1] }
    }
    return fields
  }
}

/// CPU time and memory of processes, as Linux reports them.
enum ProcessCPU {
  /// User + system time of a running process (`/proc/<pid>/stat`), in seconds; 0 when unreadable.
  static func seconds(of pid: Int32) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// User + system time of every child reaped so far, in seconds.
  static func reapedChildren() -> Double {
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    #else
      getrusage(RUSAGE_CHILDREN, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }

  /// A `kB` field of `/proc/<pid>/status` (`VmRSS`, `VmHWM`); 0 when unreadable.
  static func residentKilobytes(of pid: Int32, field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
      return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
    }
    return 0
  }
}
