// What the Redis of this run does on its own: `redis-benchmark` (Debian's redis-tools) sending
// unpipelined XADDs from 50 clients, as many keystroke producers would. A worker's throughput and
// its CPU per keystroke are printed against it, as ratios measured in the same run, so the targets
// travel between machines: a machine twice as slow halves both figures, not their ratio.
import Foundation
import RESP
import TestSupport

/// XADDs per second and Redis's CPU per XADD under `redis-benchmark`.
struct RedisBaseline {
  /// Unpipelined XADDs per second, 50 clients.
  let xaddsPerSecond: Double
  /// Redis's CPU time (user + system) per XADD, in µs.
  let cpuPerXADD: Double

  static let tool = RequiredTool.executable("redis-benchmark", installedBy: "redis-tools")
  static let clients = 50
  static let requests = 200_000

  /// Runs `redis-benchmark` against `server` once; the stream it fills is deleted afterwards.
  static func measure(server: RedisServer, cpu: (RESPConnection) throws -> Double) async throws -> RedisBaseline {
    let connection = try RESPConnection(endpoint: server.endpoint)
    defer { connection.close() }
    let key = "bench:baseline"
    let before = try cpu(connection)
    let result = try await Subprocess.run(
      URL(fileURLWithPath: try tool.path()),
      arguments: [
        "-h", "127.0.0.1", "-p", String(server.port), "-c", String(clients), "-n", String(requests), "--csv",
        "XADD", key, "*", "term", "bohemian r", "session", "u1",
      ])
    let spent = try cpu(connection) - before
    _ = try connection.call(RESPCommand("DEL", key))
    // The last line: "XADD …","<rps>",…
    guard let line = result.stdout.split(whereSeparator: \.isNewline).last,
      case let fields = line.split(separator: ","), fields.count >= 2,
      let rate = Double(fields[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), rate > 0
    else {
      throw BenchmarkFailure(description: "redis-benchmark printed no rate: \(result.stdout.suffix(300))")
    }
    return RedisBaseline(xaddsPerSecond: rate, cpuPerXADD: spent / Double(requests) * 1e6)
  }

  /// The rows of the baseline itself.
  func rows(section: String) -> [ResultRow] {
    [
      ResultRow(
        section: section, name: "redis-benchmark: unpipelined XADD, \(Self.clients) clients", unit: "XADD/s",
        sample: Sample([xaddsPerSecond]), anchor: "same Redis, same run",
        note: "\(Self.requests) requests; the denominator of the ratios below"),
      ResultRow(
        section: section, name: "redis-benchmark: Redis CPU per XADD", unit: "µs", sample: Sample([cpuPerXADD]),
        anchor: "same Redis, same run", note: "INFO cpu, user + system, over the run"),
    ]
  }
}
