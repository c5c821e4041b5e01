// One thread's connection to Redis that outlives the server's restarts: a call that fails for a
// transient reason (refused, reset, timed out) is tried again on a new connection, after a backoff
// that doubles up to a ceiling, until it succeeds or the thread is asked to stop. The scripts are
// loaded on each new connection.
import LineIO
import RESP
import Streams

/// Why a link gave up.
enum LinkFailure: Error, Equatable {
  /// The stop signal fired.
  case stopped
  /// A failure a new connection cannot fix (credentials refused, a script the server rejects).
  case fatal(RESPError)
  /// The attempts allowed were used up.
  case exhausted(RESPError)
}

/// Backoff between reconnections: 100 ms, doubling, at most 2 s.
struct ReconnectBackoff: Sendable {
  var first: Duration = .milliseconds(100)
  var ceiling: Duration = .seconds(2)
}

/// A reconnecting connection, used by one thread. Not thread-safe.
final class RedisLink {
  let endpoint: RedisEndpoint
  let options: RESPConnection.Options
  let stop: CancellationSignal?
  private let notice: @Sendable (LinkNotice) -> Void
  private let backoff: ReconnectBackoff
  /// Whether each new connection loads the workers' scripts (the shared store runs none).
  private let loadsScripts: Bool
  private let clock = ContinuousClock()
  private var connection: RESPConnection?
  private var scripts: [ScaleOutScript: String] = [:]
  private var down = false
  /// Counts the connections made: a caller that registered something per connection (its client
  /// id) does it again when this changes.
  private(set) var connectionNumber = 0

  init(
    endpoint: RedisEndpoint, options: RESPConnection.Options, stop: CancellationSignal?,
    backoff: ReconnectBackoff = ReconnectBackoff(), loadsScripts: Bool = true,
    notice: @escaping @Sendable (LinkNotice) -> Void
  ) {
    self.loadsScripts = loadsScripts
    self.endpoint = endpoint
    self.options = options
    self.stop = stop
    self.backoff = backoff
    self.notice = notice
  }

  /// Runs `body` on a working connection; a transient failure closes it, waits, and runs `body`
  /// again on a new one (so `body` must be safe to repeat). `attempts` nil tries until stopped.
  func perform<T>(attempts: Int? = nil, _ body: (RESPConnection) throws(RESPError) -> T) throws(LinkFailure) -> T {
    var wait = backoff.first
    var attempt = 0
    while true {
      attempt += 1
      // A connection made earlier may have died unnoticed (the server restarted while this link
      // was idle): that is no outage if a new one works at once, so it is tried again before
      // anything is reported.
      let reused = connection != nil
      do throws(RESPError) {
        return try succeed(body)
      } catch .stopped {
        throw .stopped
      } catch {
        guard error.isTransient else { throw .fatal(error) }
        var failure = error
        if reused {
          do throws(RESPError) {
            return try succeed(body)
          } catch .stopped {
            throw .stopped
          } catch {
            guard error.isTransient else { throw .fatal(error) }
            failure = error
          }
        }
        if !down {
          down = true
          notice(.lost(failure))
        }
        if let attempts, attempt >= attempts { throw .exhausted(failure) }
        if StopWait.wait(for: wait, clock: clock, stop: stop) { throw .stopped }
        wait = min(wait * 2, backoff.ceiling)
      }
    }
  }

  /// Runs `body` once on the current connection (made if needed); closes it on a failure.
  private func succeed<T>(_ body: (RESPConnection) throws(RESPError) -> T) throws(RESPError) -> T {
    do throws(RESPError) {
      let value = try body(try current())
      if down {
        down = false
        notice(.restored)
      }
      return value
    } catch {
      connection?.close()
      connection = nil
      throw error
    }
  }

  /// The `EVALSHA` command of `script` with its keys and arguments.
  func command(_ script: ScaleOutScript, keys: [String], arguments: [any RESPArgument]) -> RESPCommand {
    RESPCommand("EVALSHA", arguments: [scripts[script] ?? "", keys.count] + keys + arguments)
  }

  /// Runs script calls in one round trip; a call the server no longer knows (`NOSCRIPT`, after a
  /// `SCRIPT FLUSH`) is loaded again and repeated. Error replies are returned as values.
  func runScripts(_ calls: [ScriptCall], on connection: RESPConnection, timeout: Duration? = nil)
    throws(RESPError) -> [RESPValue]
  {
    var replies = try connection.readyPipeline(
      calls.map { command($0.script, keys: $0.keys, arguments: $0.arguments) }, timeout: timeout)
    let missing = replies.indices.filter { replies[$0].errorMessage?.hasPrefix("NOSCRIPT") == true }
    guard !missing.isEmpty else { return replies }
    try load(on: connection)
    let again = try connection.readyPipeline(
      missing.map { command(calls[$0].script, keys: calls[$0].keys, arguments: calls[$0].arguments) },
      timeout: timeout)
    for (index, reply) in zip(missing, again) { replies[index] = reply }
    return replies
  }

  /// Closes the connection (a stopping thread lets go of it at once).
  func close() {
    connection?.close()
    connection = nil
  }

  private func current() throws(RESPError) -> RESPConnection {
    if let connection, !connection.isClosed { return connection }
    let fresh = try RESPConnection(endpoint: endpoint, options: options, stoppingOn: stop)
    if loadsScripts { try load(on: fresh) }
    connection = fresh
    connectionNumber += 1
    return fresh
  }

  private func load(on connection: RESPConnection) throws(RESPError) {
    let all = ScaleOutScript.allCases
    let replies = try connection.readyPipeline(all.map { RESPCommand("SCRIPT", "LOAD", $0.source) })
    for (script, reply) in zip(all, replies) {
      guard let sha = reply.string, reply.errorMessage == nil else {
        throw .server("cannot load the \(script.rawValue) script: \(reply.errorMessage ?? "no answer")")
      }
      scripts[script] = sha
    }
  }
}

/// One call of a script.
struct ScriptCall {
  let script: ScaleOutScript
  let keys: [String]
  let arguments: [any RESPArgument]
}
