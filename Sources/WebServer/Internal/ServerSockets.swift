// The socket calls only a server makes: listen, accept, shutdown. Reading and writing are
// LineIO's SocketCalls, shared with the Redis client. Every socket is non-blocking and
// close-on-exec; a write to a closed peer never raises SIGPIPE.
import LineIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum ServerSockets {
  /// A listening socket on `host`:`port` (port 0: one the system picks) and the port it has.
  static func listen(host: String, port: UInt16, backlog: Int32 = 1024) throws(HTTPServerStartError) -> (
    descriptor: Int32, port: UInt16
  ) {
    let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw .badAddress(address: address, reason: String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(first) }
    let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
    guard descriptor >= 0 else { throw .systemCallFailed(address: address, call: "socket", errno: errno) }
    SocketCalls.makeNonBlocking(descriptor)
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let failure: HTTPServerStartError?
    if bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 {
      failure = startError(address: address, call: "bind", code: errno)
    } else if systemListen(descriptor, backlog) != 0 {
      failure = startError(address: address, call: "listen", code: errno)
    } else {
      failure = nil
    }
    if let failure {
      close(descriptor)
      throw failure
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let named = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else {
      let code = errno
      close(descriptor)
      throw .systemCallFailed(address: address, call: "getsockname", errno: code)
    }
    let bound: UInt16 =
      Int32(storage.ss_family) == AF_INET6
      ? withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
      }
      : withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
      }
    return (descriptor, UInt16(bigEndian: bound))
  }

  private static func startError(address: String, call: String, code: Int32) -> HTTPServerStartError {
    switch code {
    case EADDRINUSE: .addressInUse(address: address)
    case EACCES, EPERM: .permissionDenied(address: address)
    case EADDRNOTAVAIL: .badAddress(address: address, reason: "not an address of this machine")
    default: .systemCallFailed(address: address, call: call, errno: code)
    }
  }

  private static func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.listen(descriptor, backlog)
    #else
      Darwin.listen(descriptor, backlog)
    #endif
  }

  /// A connection waiting on `listener`, configured; nil when none is waiting. `errno` tells a
  /// nil caused by a shortage (EMFILE, ENFILE) apart.
  static func accept(_ listener: Int32) -> Int32? {
    while true {
      #if canImport(Glibc)
        let descriptor = Glibc.accept(listener, nil, nil)
      #else
        let descriptor = Darwin.accept(listener, nil, nil)
      #endif
      if descriptor >= 0 {
        SocketCalls.makeNonBlocking(descriptor)
        SocketCalls.disableNagle(descriptor)
        return descriptor
      }
      // A connection reset before it was taken: try the next one.
      if errno == EINTR || errno == ECONNABORTED { continue }
      return nil
    }
  }

  /// Ends the sending side (the peer reads end of stream) and keeps the socket open for reading.
  static func shutdownWrites(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_WR))
  }
}

extension ServerSockets {
  /// close(2).
  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }
}
