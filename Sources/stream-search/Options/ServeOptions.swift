// What `stream-search serve` was asked to do: where to listen, the WebServer's limits, the
// pipeline's options as a local run takes them, and with `--redis` the deployment it fronts.
import ScaleOut

/// The options of `stream-search serve`, validated.
struct ServeOptions: Equatable, Sendable {
  /// The address listened on; port 0 picks a free one.
  var host = "127.0.0.1"
  var port: UInt16 = 8080
  /// Origins allowed besides the page's own for the WebSocket (`*`: any).
  var allowedOrigins: Set<String> = []
  /// Most connections served at once.
  var maxConnections = 10_000
  /// The deployment on Redis whose workers answer (`--redis`): serve is then a gateway, and the
  /// pipeline runs in the workers. Nil runs the pipeline in this process.
  var redis: RedisOptions?
  /// The pipeline's options, as a local run takes them (`--max-line-bytes` bounds a message).
  var search: CommandLineOptions
}

/// `serve`'s own options as read, before the search options are resolved.
struct ServeDraft: Equatable, Sendable {
  var host = "127.0.0.1"
  var port: UInt16 = 8080
  var allowedOrigins: Set<String> = []
  var maxConnections = 10_000
}

extension ValueParser {
  /// `HOST:PORT` (`[::1]:8080` for IPv6): the host as given, the port 0 to 65535.
  static func listenAddress(_ text: String) throws(InvalidValue) -> (host: String, port: UInt16) {
    let expected = "expected HOST:PORT, e.g. 127.0.0.1:8080 (port 0 picks a free one)"
    guard let colon = text.lastIndex(of: ":") else { throw InvalidValue(reason: expected) }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]) else {
      throw InvalidValue(reason: expected)
    }
    return (host, port)
  }
}

extension OptionTable {
  /// The options of `stream-search serve`.
  static let serve: [OptionGroup] =
    [
      OptionGroup(
        title: "SERVE OPTIONS",
        options: [
          OptionSpec(
            "--listen", "HOST:PORT", help: "The address to serve; port 0 picks a free one.", default: "127.0.0.1:8080"
          ) { draft, value throws(InvalidValue) in
            (draft.serve.host, draft.serve.port) = try ValueParser.listenAddress(value)
          },
          OptionSpec(
            "--allow-origin", "ORIGIN",
            help: "Also accept WebSockets from this page origin (repeatable; '*' for any)."
          ) { draft, value in
            draft.serve.allowedOrigins.insert(value)
          },
          OptionSpec(
            "--max-connections", "N", help: "Most connections at once; more are answered 503.", default: "10000"
          ) { draft, value throws(InvalidValue) in
            draft.serve.maxConnections = try ValueParser.wholeNumber(value, in: 1...1_000_000)
          },
        ] + search.flatMap(\.options).filter { ["--max-line-bytes", "--session-idle"].contains($0.name) }),
      redisGroup(shards: true),
    ] + search.filter { ["SEARCH OPTIONS", "SOURCE OPTIONS", "CACHE OPTIONS"].contains($0.title) }
}

extension ScaleOutDraft {
  /// The deployment `--redis` and `--redis-prefix` name; nil without `--redis`.
  var redisOptions: RedisOptions? {
    // The prefix was checked when it was read.
    guard let endpoint, let keys = try? ScaleOutKeys(prefix: prefix) else { return nil }
    return RedisOptions(endpoint: endpoint, keys: keys, shards: shards)
  }
}
