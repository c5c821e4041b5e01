// The server's one I/O thread: it accepts, reads, parses and writes for every connection with
// non-blocking sockets, and never runs a handler (handlers are Swift tasks; their answers come
// back as commands). Blocking I/O therefore never occupies the cooperative pool, and a slow
// handler holds up only its own connection.
//
// Thread confinement: everything but `queue`, `wake` and `connectionCount` is used on the loop's
// thread only, which is why the class is @unchecked Sendable (tasks hold it to post commands).
import Foundation
import Streams
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class EventLoop: @unchecked Sendable {
  /// Schedules a call after a duration on the injected clock.
  typealias Schedule = @Sendable (Duration, @escaping @Sendable () -> Void) -> ClockWake

  private static let listenerToken: UInt64 = 0
  private static let wakeToken: UInt64 = 1

  let routes: HTTPRoutes
  let configuration: HTTPServerConfiguration
  let schedule: Schedule
  let connectionCount = Atomic<Int>(0)

  private let queue = Mutex(LoopCommandQueue())
  private let wake: WakeSignal
  let poller: Poller
  private var listener: Int32
  /// A descriptor kept in reserve: when accept fails for want of descriptors, it is closed to
  /// accept and close the waiting connection, so that the listener does not stay ready forever.
  private var spare: Int32
  var connections: [UInt64: LoopConnection] = [:]
  private var nextID: UInt64 = 2
  var stopping = false
  private var running = true
  private var stopGraceWake: ClockWake?
  let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)

  init(listener: Int32, routes: HTTPRoutes, configuration: HTTPServerConfiguration, schedule: @escaping Schedule)
    throws(HTTPServerStartError)
  {
    guard let poller = Poller(), let wake = WakeSignal() else {
      throw .systemCallFailed(address: "", call: "epoll_create", errno: errno)
    }
    self.poller = poller
    self.wake = wake
    self.listener = listener
    self.routes = routes
    self.configuration = configuration
    self.schedule = schedule
    spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
    poller.add(listener, token: Self.listenerToken, interest: [.readable])
    poller.add(wake.readEnd, token: Self.wakeToken, interest: [.readable])
  }

  deinit {
    scratch.deallocate()
  }

  /// Starts the loop's thread.
  func start() {
    let thread = Thread { self.run() }
    thread.name = "HTTPServer"
    thread.start()
  }

  /// Queues `command` for the loop's thread; ignored once the loop has ended.
  func post(_ command: LoopCommand) {
    if queue.withLock({ $0.post(command) }) { wake.fire() }
  }

  /// Stops the loop and returns once it has ended.
  func stop() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ended = queue.withLock { state -> Bool in
        if state.ended { return true }
        state.stopWaiters.append(continuation)
        return false
      }
      if ended { continuation.resume() } else { post(.stop) }
    }
  }

  private func run() {
    while running {
      poller.wait { token, readiness in
        switch token {
        case Self.listenerToken: acceptWaiting()
        case Self.wakeToken: wake.drain()
        default: if let connection = connections[token] { handle(connection, readiness) }
        }
      }
      for command in queue.withLock({ $0.take() }) { perform(command) }
    }
    for connection in Array(connections.values) { closeNow(connection) }
    if listener >= 0 { close(listener) }
    if spare >= 0 { close(spare) }
    stopGraceWake?.cancel()
    for waiter in queue.withLock({ $0.end() }) { waiter.resume() }
  }

  private func perform(_ command: LoopCommand) {
    switch command {
    case .respond(let id, let response):
      if let connection = connections[id] { respond(connection, response) }
    case .socketUpdate(let id):
      if let connection = connections[id] { takeSocketUpdate(connection) }
    case .resumeReading(let id):
      if let connection = connections[id] { resumeReading(connection) }
    case .timer(let id, let generation):
      if let connection = connections[id], connection.timerGeneration == generation { timerFired(connection) }
    case .stop:
      beginStop()
    case .stopGraceOver:
      for connection in Array(connections.values) { closeNow(connection) }
      running = false
    }
  }

  // MARK: Accepting

  private func acceptWaiting() {
    // A bounded batch, so that a flood of connections does not starve the open ones.
    for _ in 0..<64 {
      guard listener >= 0 else { return }
      guard let descriptor = ServerSockets.accept(listener) else {
        if errno == EMFILE || errno == ENFILE { shedOneConnection() }
        return
      }
      let id = nextID
      nextID += 1
      if connectionCount.load(ordering: .relaxed) >= configuration.maxConnections {
        let connection = LoopConnection(id: id, descriptor: descriptor, counted: false)
        register(connection)
        let refusal = HTTPResponse.text("too many connections\n", status: 503)
        connection.output = refusal.encoded(keepAlive: false)
        startDraining(connection)
        continue
      }
      connectionCount.add(1, ordering: .relaxed)
      let connection = LoopConnection(id: id, descriptor: descriptor, counted: true)
      register(connection)
      arm(connection, after: configuration.headTimeout)
    }
  }

  private func register(_ connection: LoopConnection) {
    connections[connection.id] = connection
    connection.interest = [.readable]
    poller.add(connection.descriptor, token: connection.id, interest: connection.interest)
  }

  /// Out of descriptors: the spare one makes room to accept the waiting connection and close it.
  private func shedOneConnection() {
    guard spare >= 0 else { return }
    close(spare)
    if let descriptor = ServerSockets.accept(listener) { close(descriptor) }
    spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
  }

  // MARK: Stopping

  private func beginStop() {
    guard !stopping else { return }
    stopping = true
    if listener >= 0 {
      poller.remove(listener)
      close(listener)
      listener = -1
    }
    for connection in Array(connections.values) {
      switch connection.phase {
      case .head, .body: closeNow(connection)
      case .webSocket: startClosing(connection, code: CloseCode.goingAway, reason: "server stopping")
      case .responding, .webSocketClosing, .draining: break
      }
    }
    if connections.isEmpty {
      running = false
      return
    }
    stopGraceWake = schedule(configuration.stopGrace) { [weak self] in self?.post(.stopGraceOver) }
  }

  /// Called when a connection is gone: the loop ends once the last one is, while stopping.
  func connectionRemoved() {
    if stopping && connections.isEmpty { running = false }
  }

  // MARK: Timers

  /// Runs `timerFired` for `connection` after `duration`, replacing its earlier timer.
  func arm(_ connection: LoopConnection, after duration: Duration) {
    connection.timer?.cancel()
    connection.timerGeneration += 1
    let id = connection.id
    let generation = connection.timerGeneration
    connection.timer = nil
    connection.timer = schedule(duration) { [weak self] in self?.post(.timer(id, generation: generation)) }
  }

  func disarm(_ connection: LoopConnection) {
    connection.timer?.cancel()
    connection.timer = nil
    connection.timerGeneration += 1
  }

  private func timerFired(_ connection: LoopConnection) {
    switch connection.phase {
    // A head not complete in time (slowloris, or an idle kept-alive connection), a close
    // handshake the client never finished, a drain it never ended: closed without more ado.
    case .head, .body, .webSocketClosing, .draining: closeNow(connection)
    case .responding, .webSocket: break
    }
  }
}
