// An HTTP/1.1 server on 127.0.0.1 for tests: answers what a handler says, injects faults on
// demand, and logs every request with what became of its connection.
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 at an ephemeral port, built on POSIX sockets alone: one
/// thread accepts, one thread serves each connection (one request per connection, then close).
///
/// Useful to test a client against real sockets: statuses, broken bodies, resets, silence,
/// slow or huge answers (see `Fault`), with a log that shows what the client sent and when it
/// gave up.
///
/// ```swift
/// let server = LoopbackHTTPServer { request in .fault(.noAnswer) }
/// try server.start()
/// defer { server.stop() }
/// let search = Task { try await source.search(request) }
/// _ = await server.waitForRequests(count: 1)     // resumes when the request is logged
/// search.cancel()
/// let closedAt = await server.waitForEarlyClose(ofRequest: 0)
/// ```
///
/// - Caveat: waits never sleep: they are poll(2) calls with timeouts on the connection and on a
///   wake pipe, so a client closing early ends them at once, and `stop()` ends all of them.
public final class LoopbackHTTPServer: Sendable {
  /// Decides the answer to a request; runs on the connection's thread.
  public typealias Handler = @Sendable (ReceivedRequest) -> Reply

  private struct Lifecycle {
    enum Phase { case idle, running, stopped }
    var phase = Phase.idle
    var listenFD: Int32 = -1
    var wakeRead: Int32 = -1
    var wakeWrite: Int32 = -1
    var port: UInt16 = 0
    var acceptDone: DispatchSemaphore?
    var connectionsDone: [DispatchSemaphore] = []
  }

  private let log: ServerLog
  private let lifecycle = Mutex(Lifecycle())

  /// A stopped server that will answer with `handler` (404 with an empty body by default).
  public init(handler: @escaping Handler = { _ in .status(404) }) {
    log = ServerLog(handler: handler)
  }

  /// The handler; changing it affects requests that arrive afterwards.
  public var handler: Handler {
    get { log.handler }
    set { log.handler = newValue }
  }

  /// The port, 0 before `start()`.
  public var port: UInt16 { lifecycle.withLock { $0.port } }

  /// `http://127.0.0.1:<port>`, without a path.
  public var baseURL: URL {
    URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")  // the string is always valid
  }

  /// `baseURL` with `path` appended, e.g. `url("/search")`.
  public func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)") ?? baseURL
  }

  /// Every request received so far, in arrival order, with what became of its connection.
  public var requests: [ReceivedRequest] { log.requests }

  /// How many connections are open right now.
  public var openConnectionCount: Int { log.openConnections }

  /// Binds 127.0.0.1 at an ephemeral port and starts accepting.
  ///
  /// - Throws: `SocketError` when the socket cannot be set up; calling it twice does nothing.
  public func start() throws {
    var pipeFDs: [Int32] = [-1, -1]
    guard pipe(&pipeFDs) == 0 else { throw SocketError(call: "pipe", code: errno) }
    let listener: (fd: Int32, port: UInt16)
    do {
      listener = try Socket.listenOnLoopback()
    } catch {
      close(pipeFDs[0])
      close(pipeFDs[1])
      throw error
    }
    let done = DispatchSemaphore(value: 0)
    let started = lifecycle.withLock { state -> Bool in
      guard state.phase == .idle else { return false }
      state = Lifecycle(
        phase: .running, listenFD: listener.fd, wakeRead: pipeFDs[0], wakeWrite: pipeFDs[1],
        port: listener.port, acceptDone: done
      )
      return true
    }
    guard started else {
      for fd in [listener.fd, pipeFDs[0], pipeFDs[1]] { close(fd) }
      return
    }
    let wakeRead = pipeFDs[0]
    let thread = Thread { [self] in
      acceptLoop(listenFD: listener.fd, wakeFD: wakeRead)
      done.signal()
    }
    thread.name = "LoopbackHTTPServer.accept"
    thread.start()
  }

  /// Stops: wakes every wait, closes the listening socket and every connection, and returns
  /// once all the server's threads have ended. Waiters on the log are released.
  public func stop() {
    let (wasRunning, state) = lifecycle.withLock { state -> (Bool, Lifecycle) in
      defer { if state.phase == .running { state.phase = .stopped } }
      return (state.phase == .running, state)
    }
    guard wasRunning else { return }
    // The pipe is never read: once written it stays readable and wakes every poll for good.
    var byte: UInt8 = 1
    _ = write(state.wakeWrite, &byte, 1)
    state.acceptDone?.wait()
    // The accept thread has ended, so no connection thread can be added any more.
    for done in lifecycle.withLock({ $0.connectionsDone }) { done.wait() }
    for fd in [state.listenFD, state.wakeRead, state.wakeWrite] { close(fd) }
    log.markStopped()
  }

  /// The log as soon as it holds `count` requests (at once if it does), or when the server stops.
  public func waitForRequests(count: Int) async -> [ReceivedRequest] {
    await log.wait { $0.count >= count }
  }

  /// The log as soon as `condition` holds for it, or when the server stops.
  public func waitUntil(_ condition: @escaping @Sendable ([ReceivedRequest]) -> Bool) async -> [ReceivedRequest] {
    await log.wait(until: condition)
  }

  /// The number of open connections as soon as it is at most `count` (so `atMost: 0` waits
  /// until every connection has been closed), or as it stands when the server stops.
  public func waitForOpenConnections(atMost count: Int) async -> Int {
    await log.waitForOpenConnections(atMost: count)
  }

  /// When the client of request `index` closed its connection before the answer was complete;
  /// waits for that to happen. Nil when the server stops first.
  public func waitForEarlyClose(ofRequest index: Int) async -> ContinuousClock.Instant? {
    let log = await log.wait { $0.indices.contains(index) && $0[index].clientClosedEarly }
    return log.indices.contains(index) ? log[index].clientClosedEarlyAt : nil
  }

  /// A loopback port that nothing listens on, for testing refused connections.
  public static func closedPort() throws -> UInt16 {
    try Socket.closedLoopbackPort()
  }

  private func acceptLoop(listenFD: Int32, wakeFD: Int32) {
    // Non-blocking, so that a connection the client dropped between poll and accept makes accept
    // fail (EAGAIN) instead of blocking this thread, and with it `stop()`, until the next client.
    Socket.setNonBlocking(listenFD)
    while Socket.wait(listenFD, for: Int16(POLLIN), wakeFD: wakeFD, until: nil) == .ready {
      let fd = accept(listenFD, nil, nil)
      guard fd >= 0 else { continue }
      #if canImport(Darwin)
        var noSigPipe: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
      #endif
      let done = DispatchSemaphore(value: 0)
      let accepted = lifecycle.withLock { state -> Bool in
        guard state.phase == .running else { return false }
        state.connectionsDone.append(done)
        return true
      }
      guard accepted else {
        close(fd)
        return
      }
      log.connectionOpened()
      let connection = Connection(fd: fd, wakeFD: wakeFD, log: log)
      let thread = Thread { [log] in
        connection.run()
        close(fd)
        log.connectionClosed()
        done.signal()
      }
      thread.name = "LoopbackHTTPServer.connection"
      thread.start()
    }
  }
}
