// Thin POSIX socket helpers for the loopback server: a listening socket, non-blocking I/O and poll(2).
//
// Every wait is a poll(2) with a timeout on the connection and on the server's wake pipe, never a
// sleep: a wait therefore ends early when the client closes its side or the server stops.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed socket call, with the call's name and errno.
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The call that failed, e.g. "bind".
  public var call: String
  /// The errno it left.
  public var code: Int32

  /// "bind failed: Address already in use (errno 98)".
  public var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// What ended a wait on a connection.
enum WaitOutcome: Equatable {
  /// The socket is ready for what was asked.
  case ready
  /// The deadline passed.
  case deadline
  /// The client closed (or reset) its side of the connection.
  case peerClosed
  /// The server is stopping.
  case stopping
}

enum Socket {
  /// A TCP socket listening on 127.0.0.1 at an ephemeral port, and that port.
  static func listenOnLoopback() throws -> (fd: Int32, port: UInt16) {
    let fd = try makeTCPSocket()
    do {
      var reuse: Int32 = 1
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
      try bindLoopback(fd, port: 0)
      guard listen(fd, 64) == 0 else { throw SocketError(call: "listen", code: errno) }
      return (fd, try boundPort(fd))
    } catch {
      close(fd)
      throw error
    }
  }

  /// A loopback port with nothing listening on it: bound, read, then closed again. A connection
  /// to it is refused (the kernel does not hand an ephemeral port out again at once).
  static func closedLoopbackPort() throws -> UInt16 {
    let fd = try makeTCPSocket()
    defer { close(fd) }
    try bindLoopback(fd, port: 0)
    return try boundPort(fd)
  }

  static func makeTCPSocket() throws -> Int32 {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
    #if canImport(Darwin)
      var noSigPipe: Int32 = 1
      setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return fd
  }

  static func bindLoopback(_ fd: Int32, port: UInt16) throws {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(port).bigEndian
    address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else { throw SocketError(call: "bind", code: errno) }
  }

  static func boundPort(_ fd: Int32) throws -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw SocketError(call: "getsockname", code: errno) }
    return UInt16(bigEndian: address.sin_port)
  }

  static func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL, 0)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
  }

  /// Makes `close` send RST instead of FIN.
  static func setResetOnClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
  }

  /// Waits until `fd` has any of `events`, the deadline passes, or `wakeFD` becomes readable.
  /// POLLHUP or POLLERR on `fd` reads as `.peerClosed`.
  static func wait(
    _ fd: Int32, for events: Int16, wakeFD: Int32, until deadline: ContinuousClock.Instant?
  ) -> WaitOutcome {
    while true {
      var timeout: Int32 = -1
      if let deadline {
        let left = ContinuousClock.now.duration(to: deadline)
        if left <= .zero { return .deadline }
        // Round up so that a wait never ends before its deadline.
        let milliseconds = (left + .nanoseconds(999_999)).components
        timeout = Int32(clamping: milliseconds.seconds * 1000 + milliseconds.attoseconds / 1_000_000_000_000_000)
      }
      var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
      let count = poll(&fds, nfds_t(fds.count), timeout)
      if count < 0 {
        if errno == EINTR { continue }
        return .peerClosed
      }
      if fds[1].revents != 0 { return .stopping }
      if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && fds[0].revents & events == 0 {
        return .peerClosed
      }
      if fds[0].revents & events != 0 { return .ready }
    }
  }

  /// Sends `bytes` in full on a non-blocking socket.
  static func sendAll(_ fd: Int32, _ bytes: some Collection<UInt8>, wakeFD: Int32) -> WaitOutcome {
    let buffer = Array(bytes)
    var offset = 0
    while offset < buffer.count {
      let sent = buffer[offset...].withUnsafeBytes { raw in
        #if canImport(Glibc)
          send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
        #else
          send(fd, raw.baseAddress, raw.count, 0)
        #endif
      }
      if sent > 0 {
        offset += sent
      } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        let outcome = wait(fd, for: Int16(POLLOUT), wakeFD: wakeFD, until: nil)
        if outcome != .ready { return outcome }
      } else {
        return .peerClosed
      }
    }
    return .ready
  }

  /// Reads what is available into `buffer`: `.ready` with bytes appended, `.peerClosed` at end
  /// of stream or on a reset. Call after `wait(_:for: POLLIN…)` said `.ready`.
  static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> WaitOutcome {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count > 0 {
      buffer.append(contentsOf: chunk[0..<count])
      return .ready
    }
    if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .ready }
    return .peerClosed
  }
}
