// The options of `publish`, `worker` and `events`. The worker takes every pipeline option of a
// local run, the very same specs, so both read and document them one way.
import Pipeline
import RESP
import ScaleOut
import Streams

extension OptionTable {
  /// `--redis`, `--redis-prefix` (every command), and `--shards` when `shards`.
  static func redisGroup(shards: Bool) -> OptionGroup {
    var options = [
      OptionSpec("--redis", "URL", help: "The Redis server: redis://[:password@]host[:port][/db].") {
        draft, value throws(InvalidValue) in
        draft.scaleOut.endpoint = try ValueParser.redisEndpoint(value)
      },
      OptionSpec(
        "--redis-prefix", "NAME", help: "Prefix of every key, so that deployments can share a server.",
        default: ScaleOutKeys.defaultPrefix
      ) { draft, value throws(InvalidValue) in
        draft.scaleOut.prefix = try ValueParser.redisPrefix(value)
      },
    ]
    if shards {
      options.append(
        OptionSpec(
          "--shards", "N",
          help: "Shards of a new prefix, fixed at its first use (a different number later is an error).",
          default: "the stored count, else \(ShardCount.defaultCount)"
        ) { draft, value throws(InvalidValue) in
          draft.scaleOut.shards = try ValueParser.wholeNumber(value, in: 1...ShardCount.maximum)
        })
    }
    return OptionGroup(title: "REDIS OPTIONS", options: options)
  }

  /// The local run's options called `names`, in that order.
  private static func searchOptions(_ names: [String]) -> [OptionSpec] {
    let all = search.flatMap(\.options)
    return names.compactMap { name in all.first { $0.name == name } }
  }

  /// The options of `stream-search publish`.
  static let publish: [OptionGroup] = [
    OptionGroup(title: "INPUT OPTIONS", options: searchOptions(["--input", "--follow", "--max-line-bytes"])),
    redisGroup(shards: true),
  ]

  /// The options of `stream-search worker`.
  static let worker: [OptionGroup] =
    [
      OptionGroup(
        title: "WORKER OPTIONS",
        options: [
          OptionSpec(
            "--name", "NAME", help: "The worker's name among the live workers; unique to each.",
            default: "host-pid"
          ) { draft, value throws(InvalidValue) in
            draft.scaleOut.name = try WorkerName.parse(value)
          },
          OptionSpec(
            "--lease", "DURATION",
            help: "How long a shard stays this worker's without renewal (renewed every tenth of it), from 1s to 60s.",
            default: ScaleOutDraft().lease.commandLineText
          ) { draft, value throws(InvalidValue) in
            let lease = try ValueParser.duration(value, exampleUnit: .seconds, positive: true)
            guard lease >= .seconds(1), lease <= .seconds(60) else {
              throw InvalidValue(reason: "expected a duration from 1s to 60s")
            }
            draft.scaleOut.lease = lease
          },
          OptionSpec(
            "--events-kept", "N", help: "Events kept per shard for readers; older ones are trimmed.",
            default: String(ScaleOutDraft().eventsKept)
          ) { draft, value throws(InvalidValue) in
            draft.scaleOut.eventsKept = try ValueParser.wholeNumber(value, in: 1...100_000_000)
          },
          OptionSpec(
            "--metrics", "HOST:PORT",
            help: "Serve /metrics (Prometheus) and /healthz on this address; port 0 picks a free one."
          ) { draft, value throws(InvalidValue) in
            let (host, port) = try ValueParser.listenAddress(value)
            draft.scaleOut.metrics = ListenAddress(host: host, port: port)
          },
        ] + searchOptions(["--session-idle"])),
      redisGroup(shards: true),
    ]
    + search.filter { ["SEARCH OPTIONS", "SOURCE OPTIONS", "CACHE OPTIONS"].contains($0.title) }
    + [
      OptionGroup(title: "OUTPUT OPTIONS", options: searchOptions(["--stats", "--verbose", "--quiet", "--log"]))
    ]

  /// The options of `stream-search events`.
  static let events: [OptionGroup] = [
    OptionGroup(
      title: "EVENTS OPTIONS",
      options: [
        OptionSpec("--follow", help: "Keep printing events as workers commit them.") {
          $0.scaleOut.followEvents = true
        },
        OptionSpec("--session", "NAME", help: "Only this session's events.") { draft, value throws(InvalidValue) in
          guard !value.isEmpty else { throw InvalidValue(reason: "expected a session name") }
          draft.scaleOut.session = value
        },
      ]),
    redisGroup(shards: false),
  ]
}

extension ValueParser {
  /// A `redis://` URL.
  static func redisEndpoint(_ text: String) throws(InvalidValue) -> RedisEndpoint {
    do {
      return try RedisEndpoint(url: text)
    } catch {
      throw InvalidValue(reason: error.description)
    }
  }

  /// A key prefix.
  static func redisPrefix(_ text: String) throws(InvalidValue) -> String {
    do {
      return try ScaleOutKeys(prefix: text).prefix
    } catch {
      throw InvalidValue(reason: "expected 1 to 64 letters, digits, '-', '_', '.' or ':'")
    }
  }
}
