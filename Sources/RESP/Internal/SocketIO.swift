// The socket calls of the client: a non-blocking TCP connect with a deadline, and poll(2) waits
// that end at a deadline or when a stop signal fires. Every wait is bounded. The send and the
// receive themselves are LineIO's SocketCalls, which the web server shares.
import LineIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum SocketIO {
  /// Connects to `host`:`port` (every address it resolves to, in turn) before `deadline`;
  /// returns a non-blocking, close-on-exec socket with Nagle's delay off.
  static func connect(
    host: String, port: UInt16, deadline: ContinuousClock.Instant, stop: CancellationSignal?
  ) throws(RESPError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(first) }
    var lastError = ECONNREFUSED
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let current = entry {
      entry = current.pointee.ai_next
      let descriptor = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
      guard descriptor >= 0 else {
        lastError = errno
        continue
      }
      configure(descriptor)
      if systemConnect(descriptor, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 {
        return descriptor
      }
      guard errno == EINPROGRESS || errno == EINTR else {
        lastError = errno
        close(descriptor)
        continue
      }
      do {
        _ = try wait(descriptor, for: Int16(POLLOUT), until: deadline, stop: stop)
      } catch {
        close(descriptor)
        throw error
      }
      var code: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
      if code == 0 { return descriptor }
      lastError = code
      close(descriptor)
    }
    throw .connectFailed(errno: lastError)
  }

  private static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t)
    -> Int32
  {
    #if canImport(Glibc)
      Glibc.connect(descriptor, address, length)
    #else
      Darwin.connect(descriptor, address, length)
    #endif
  }

  /// Non-blocking, close-on-exec, no SIGPIPE, no Nagle delay (a pipeline's commands leave in
  /// one segment and a lone command is not held back waiting for an acknowledgement), and TCP
  /// keep-alive.
  private static func configure(_ descriptor: Int32) {
    SocketCalls.makeNonBlocking(descriptor)
    SocketCalls.disableNagle(descriptor)
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Blocks until `descriptor` has any of `events` (returned, with POLLHUP/POLLERR as they
  /// came), `deadline` passes (``RESPError/timedOut(_:)`` is thrown by the caller's reading of
  /// it: here `.timedOut(.zero)`), or `stop` fires while nothing is ready.
  static func wait(
    _ descriptor: Int32, for events: Int16, until deadline: ContinuousClock.Instant, stop: CancellationSignal?
  ) throws(RESPError) -> Int16 {
    let clock = ContinuousClock()
    var entries = [pollfd(fd: descriptor, events: events, revents: 0)]
    if let stop { entries.append(pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)) }
    while true {
      let left = clock.now.duration(to: deadline)
      guard left > .zero else { throw .timedOut(.zero) }
      // Rounded up, so that a wait never ends before its deadline.
      let parts = (left + .nanoseconds(999_999)).components
      let milliseconds = Int32(clamping: parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
      for index in entries.indices { entries[index].revents = 0 }
      let count = poll(&entries, nfds_t(entries.count), max(milliseconds, 1))
      if count < 0 {
        if errno == EINTR { continue }
        throw .ioFailed(errno: errno)
      }
      if entries[0].revents != 0 { return entries[0].revents }
      if entries.count > 1, entries[1].revents != 0 { throw .stopped }
    }
  }

  /// Sends what it can of `bytes` from `offset` without blocking; returns the count sent (0
  /// when the socket's buffer is full).
  static func send(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int) throws(RESPError) -> Int {
    switch SocketCalls.send(descriptor, bytes, from: offset) {
    case .moved(let count): return count
    case .wouldBlock: return 0
    case .endOfStream, .failed(errno: EPIPE), .failed(errno: ECONNRESET): throw .closed
    case .failed(let code): throw .ioFailed(errno: code)
    }
  }

  /// Reads what has arrived into `parser`; returns false when nothing was there yet.
  ///
  /// - Throws: ``RESPError/closed`` at end of stream or on a reset.
  static func receive(_ descriptor: Int32, into parser: inout RESPParser) throws(RESPError) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    let outcome = chunk.withUnsafeMutableBytes { SocketCalls.receive(descriptor, into: $0) }
    switch outcome {
    case .moved(let count):
      parser.append(chunk[0..<count])
      return true
    case .wouldBlock: return false
    case .endOfStream, .failed(errno: ECONNRESET): throw .closed
    case .failed(let code): throw .ioFailed(errno: code)
    }
  }
}
