// The validated configurations of the commands that run on Redis: `publish`, `worker`, `events`.
import Foundation
import RESP
import ScaleOut

/// Where the deployment lives on Redis.
struct RedisOptions: Equatable, Sendable {
  /// The server (`--redis URL`).
  var endpoint: RedisEndpoint
  /// `--redis-prefix`: the keys' prefix, so deployments can share a server.
  var keys: ScaleOutKeys
  /// `--shards`: checked against the stored count (or stored, for a new prefix); nil takes the
  /// stored count, else ``ShardCount/defaultCount``.
  var shards: Int?
}

/// What `stream-search publish` was asked to do.
struct PublishOptions: Equatable, Sendable {
  var redis: RedisOptions
  /// The file or FIFO keystrokes are read from; nil reads standard input.
  var inputPath: String?
  /// Keep reading the FIFO after its writers close.
  var follow: Bool
  /// Longest input line accepted, in bytes.
  var maxLineBytes: Int
}

/// What `stream-search worker` was asked to do.
struct WorkerOptions: Equatable, Sendable {
  var redis: RedisOptions
  /// The worker's settings: name, lease, events kept.
  var settings: WorkerSettings
  /// The pipeline's options, as a local run takes them.
  var search: CommandLineOptions
  /// Where `/metrics` and `/healthz` are served (`--metrics`); nil serves nothing.
  var metrics: ListenAddress? = nil
}

/// A `HOST:PORT` to listen on; port 0 picks a free one.
struct ListenAddress: Equatable, Sendable {
  var host: String
  var port: UInt16
}

/// What `stream-search events` was asked to do.
struct EventsOptions: Equatable, Sendable {
  var redis: RedisOptions
  /// Keep printing events as they are committed.
  var follow: Bool
  /// Only this session's events.
  var session: String?
}

/// The Redis options as given, before the command's requirements are checked.
struct ScaleOutDraft: Sendable {
  var endpoint: RedisEndpoint?
  var prefix = ScaleOutKeys.defaultPrefix
  var shards: Int?
  var name: String?
  var lease = Duration.seconds(5)
  var eventsKept = 10_000
  /// `worker --metrics HOST:PORT`.
  var metrics: ListenAddress?
  var session: String?
  /// `events --follow` (the input `--follow` of `publish` is the local run's).
  var followEvents = false

  /// The default worker name: the host's name and the process id, e.g. `web-3-4127`.
  static func defaultWorkerName() -> String {
    let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "worker"
    let cleaned = String(host.unicodeScalars.filter(WorkerName.allowed.contains).prefix(40))
    return "\(cleaned.isEmpty ? "worker" : cleaned)-\(ProcessInfo.processInfo.processIdentifier)"
  }
}

/// The rule for `--name`.
enum WorkerName {
  /// Letters, digits, `-`, `_`, `.`, `@`.
  static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@".unicodeScalars)

  /// `text` when it is 1 to 64 allowed characters.
  static func parse(_ text: String) throws(InvalidValue) -> String {
    guard !text.isEmpty, text.unicodeScalars.count <= 64, text.unicodeScalars.allSatisfy(allowed.contains) else {
      throw InvalidValue(reason: "expected 1 to 64 letters, digits, '-', '_', '.' or '@'")
    }
    return text
  }
}
