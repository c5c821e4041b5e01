// One TCP connection to a Redis server, used by one thread at a time: commands go out, replies
// come back in order. Blocking for its caller, non-blocking underneath: every wait is a poll(2)
// bounded by a timeout and by the stop signal, so no call can hang a thread.
import LineIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection to a Redis server speaking RESP2.
///
/// Useful on a thread of its own (a worker's reader, its lease keeper): each call blocks that
/// thread until the replies are in, the timeout passes, or the stop signal fires.
///
/// ```swift
/// let connection = try RESPConnection(endpoint: RedisEndpoint(url: "redis://127.0.0.1:6379"))
/// let pong = try connection.call(RESPCommand("PING"))                   // .simpleString("PONG")
/// let replies = try connection.pipeline([RESPCommand("INCR", "n"), RESPCommand("GET", "n")])
/// ```
///
/// - Element: ``call(_:timeout:)`` and both `pipeline(_:timeout:)` (of commands, or of a
///   ``RESPRequest``) return the server's replies, an error reply (`-ERR …`) included as
///   ``RESPValue/error(_:)``: one command of a pipeline can fail while the others succeed.
/// - Failure: a timeout, a closed or reset connection, a reply that is not RESP2 or exceeds
///   ``RESPLimits``, a reply of a type its command never answers (``RESPReplyKinds``, checked
///   for every reply, inside `MULTI`/`EXEC` too): ``RESPError``, and the connection is closed
///   (every later call throws ``RESPError/closed``); make a new one to go on.
/// - Cancellation: when `stop` fires, a call waiting for the server throws
///   ``RESPError/stopped`` at once (bytes already there are still read first), and so does
///   every later call that would wait.
/// - Caveat: not thread-safe. Host names are resolved with `getaddrinfo(3)`, which has no
///   timeout of its own; numeric addresses and `localhost` never wait for it.
public final class RESPConnection {
  /// Timeouts and limits of a connection.
  public struct Options: Sendable, Hashable {
    /// How long connecting (and `AUTH`, `SELECT`) may take. Default 2 s.
    public var connectTimeout: Duration
    /// How long a call may wait for its replies, unless the call gives its own. Default 5 s.
    public var replyTimeout: Duration
    /// Bounds on each reply.
    public var limits: RESPLimits

    /// Options with the defaults, or the values given.
    public init(
      connectTimeout: Duration = .seconds(2), replyTimeout: Duration = .seconds(5), limits: RESPLimits = RESPLimits()
    ) {
      self.connectTimeout = connectTimeout
      self.replyTimeout = replyTimeout
      self.limits = limits
    }
  }

  /// The server this connection talks to.
  public let endpoint: RedisEndpoint
  /// Its timeouts and limits.
  public let options: Options
  private var descriptor: Int32
  private var parser: RESPParser
  /// Checks each reply against its command, and knows whether a transaction is open.
  private var replyCheck = ReplyCheck()
  private let stop: CancellationSignal?
  private let clock = ContinuousClock()

  /// Connects to `endpoint`, then sends `AUTH` (with a password) and `SELECT` (for a database
  /// other than 0), all within ``Options/connectTimeout``.
  ///
  /// - Throws: ``RESPError``: ``RESPError/server(_:)`` when `AUTH` or `SELECT` is refused.
  public init(endpoint: RedisEndpoint, options: Options = Options(), stoppingOn stop: CancellationSignal? = nil)
    throws(RESPError)
  {
    self.endpoint = endpoint
    self.options = options
    self.stop = stop
    parser = RESPParser(limits: options.limits)
    let deadline = clock.now.advanced(by: options.connectTimeout)
    do throws(RESPError) {
      descriptor = try SocketIO.connect(host: endpoint.host, port: endpoint.port, deadline: deadline, stop: stop)
    } catch .timedOut {
      throw .timedOut(options.connectTimeout)
    }
    var setup: [RESPCommand] = []
    if let password = endpoint.password {
      setup.append(
        endpoint.user.map { RESPCommand("AUTH", $0, password) } ?? RESPCommand("AUTH", password))
    }
    if endpoint.database != 0 { setup.append(RESPCommand("SELECT", endpoint.database)) }
    guard !setup.isEmpty else { return }
    var request = RESPRequest()
    for command in setup { request.append(command) }
    let replies = try exchange(request, deadline: deadline, limit: options.connectTimeout)
    if let waiting = replies.first(where: \.isNotReadyError)?.errorMessage {
      close()
      throw .notReady(waiting)
    }
    if let refusal = replies.lazy.compactMap(\.errorMessage).first {
      close()
      throw .server(refusal)
    }
  }

  deinit { close() }

  /// True once the connection is closed, by ``close()`` or by a failure.
  public var isClosed: Bool { descriptor < 0 }

  /// Sends `command` and returns its reply; `timeout` replaces ``Options/replyTimeout`` (a
  /// blocking command such as `XREADGROUP … BLOCK 2000` needs more than it blocks for).
  ///
  /// - Throws: ``RESPError`` on a timeout, a lost connection, a bad reply or a stop.
  public func call(_ command: RESPCommand, timeout: Duration? = nil) throws(RESPError) -> RESPValue {
    let replies = try pipeline([command], timeout: timeout)
    guard let reply = replies.first else { throw .protocolViolation("no reply") }
    return reply
  }

  /// Sends every command at once and returns their replies in order: one round trip for all.
  /// While the commands are still going out, replies already arriving are read, so a long
  /// pipeline never waits on a full socket buffer at both ends.
  ///
  /// - Throws: ``RESPError`` on a timeout (one `timeout` for the whole exchange), a lost
  ///   connection, a bad reply or a stop.
  public func pipeline(_ commands: [RESPCommand], timeout: Duration? = nil) throws(RESPError) -> [RESPValue] {
    var request = RESPRequest()
    for command in commands { request.append(command) }
    return try pipeline(request, timeout: timeout)
  }

  /// Sends the commands of `request` at once and returns their replies in order, as
  /// a pipeline of commands does.
  ///
  /// - Throws: ``RESPError`` on a timeout (one `timeout` for the whole exchange), a lost
  ///   connection, a bad reply or a stop.
  public func pipeline(_ request: RESPRequest, timeout: Duration? = nil) throws(RESPError) -> [RESPValue] {
    guard request.count > 0 else { return [] }
    let limit = timeout ?? options.replyTimeout
    return try exchange(request, deadline: clock.now.advanced(by: limit), limit: limit)
  }

  /// Closes the socket; later calls throw ``RESPError/closed``.
  public func close() {
    guard descriptor >= 0 else { return }
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
    descriptor = -1
  }

  private func exchange(_ outgoing: RESPRequest, deadline: ContinuousClock.Instant, limit: Duration)
    throws(RESPError) -> [RESPValue]
  {
    guard descriptor >= 0 else { throw .closed }
    do throws(RESPError) {
      // Bytes nobody asked for mean the stream is out of step: a reply would be paired with the
      // wrong command.
      guard parser.isIdle else { throw .protocolViolation("data the client did not ask for") }
      let request = outgoing.encoded
      let expected = outgoing.count
      var sent = 0
      var replies: [RESPValue] = []
      replies.reserveCapacity(expected)
      while true {
        while replies.count < expected, let reply = try parser.next() {
          try replyCheck.check(reply, to: outgoing.expectations[replies.count])
          replies.append(reply)
        }
        if replies.count == expected {
          guard sent == request.count else { throw .protocolViolation("replies before the whole request was sent") }
          return replies
        }
        let wanted = Int16(POLLIN) | (sent < request.count ? Int16(POLLOUT) : 0)
        let ready = try SocketIO.wait(descriptor, for: wanted, until: deadline, stop: stop)
        if sent < request.count, ready & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
          sent += try SocketIO.send(descriptor, request, from: sent)
        }
        if ready & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
          _ = try SocketIO.receive(descriptor, into: &parser)
        }
      }
    } catch .timedOut {
      close()
      throw .timedOut(limit)
    } catch {
      close()
      throw error
    }
  }
}
