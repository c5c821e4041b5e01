// The "webserver" section: the WebServer library's HTTP/1.1 path against nginx, in the same run.
// wrk (keep-alive, 32 connections, one thread) asks this process's server for a fixed response,
// then a private nginx (one worker) for the same body as a static file, alternating run by run
// so that both see the same machine. The figure that matters is the ratio: `serve`'s /search
// must reach at least half nginx's rate, and the protocol layer under it must leave room for the
// search itself.
import Foundation
import TestSupport
import WebServer

/// Measures the "webserver" section.
struct WebServerSection {
  let options: BenchOptions
  static let section = "13 webserver"
  /// A body of the size of a typical `results` event.
  static let body = String(repeating: #"{"title":"Bohemian Rhapsody","artist":"Queen"},"#, count: 24)
  static let wrk = RequiredTool.executable("wrk", installedBy: "wrk")

  func measure(into table: inout ResultTable) async throws {
    for tool in [Self.wrk, NginxServer.tool] where !tool.isAvailable {
      table.append(ResultRow(section: Self.section, name: tool.name, unit: "", sample: nil, note: tool.skipNote))
      return
    }
    var routes = HTTPRoutes()
    let response = HTTPResponse.json(Self.body)
    routes.get("/fixed") { _ in response }
    let server = try HTTPServer.start(host: "127.0.0.1", port: 0, routes: routes)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-static-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Self.body.write(to: directory.appendingPathComponent("fixed"), atomically: true, encoding: .utf8)
    let nginx = try await NginxServer.start(
      executable: try NginxServer.tool.path(),
      serverBody: "location / { root \(directory.path); default_type application/json; }")
    defer {
      nginx.stop()
      try? FileManager.default.removeItem(at: directory)
    }
    let seconds = options.runs <= 3 ? 3 : 5
    var ours: [Double] = []
    var theirs: [Double] = []
    var ratios: [Double] = []
    // A warm-up of each, then the timed runs, alternating.
    _ = try await Self.rate(port: server.boundPort, seconds: 1)
    _ = try await Self.rate(port: nginx.port, seconds: 1)
    for _ in 0..<options.runs {
      let own = try await Self.rate(port: server.boundPort, seconds: seconds)
      let reference = try await Self.rate(port: nginx.port, seconds: seconds)
      ours.append(own)
      theirs.append(reference)
      ratios.append(own / reference)
    }
    await server.stop()
    table.append(
      ResultRow(
        section: Self.section, name: "GET, keep-alive, fixed \(Self.body.utf8.count)-byte body", unit: "req/s",
        sample: Sample(ours), anchor: "wrk -t1 -c32 -d\(seconds)s"))
    table.append(
      ResultRow(
        section: Self.section, name: "nginx, the same body as a static file", unit: "req/s", sample: Sample(theirs),
        anchor: "1 worker, same run"))
    table.append(
      ResultRow(
        section: Self.section, name: "WebServer / nginx", unit: "×", sample: Sample(ratios), target: "≥ 0.5",
        anchor: "run by run"))
  }

  /// Requests per second wrk reaches on 127.0.0.1:`port` at `path`.
  static func rate(port: UInt16, path: String = "/fixed", seconds: Int) async throws -> Double {
    let result = try await Subprocess.run(
      URL(fileURLWithPath: try wrk.path()),
      arguments: ["-t1", "-c32", "-d\(seconds)s", "http://127.0.0.1:\(port)\(path)"])
    for line in result.stdout.split(separator: "\n") where line.hasPrefix("Requests/sec:") {
      if let value = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces)) { return value }
    }
    throw WrkOutputError(output: result.stdout + result.stderr)
  }
}

/// wrk ended without its "Requests/sec:" line.
struct WrkOutputError: Error, CustomStringConvertible {
  let output: String
  var description: String { "wrk printed no rate: \(output)" }
}
