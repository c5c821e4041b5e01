// The socket calls the package's network code shares (the Redis client and the web server):
// making a socket non-blocking, a send and a receive that never block and never raise SIGPIPE,
// each retried on EINTR and its outcome told apart once, here.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a non-blocking send or receive did.
package enum SocketTransfer: Equatable, Sendable {
  /// This many bytes moved (more than 0).
  case moved(Int)
  /// Nothing now: the call would block.
  case wouldBlock
  /// The peer closed its sending side (a receive read end of stream).
  case endOfStream
  /// The call failed with this errno (EPIPE, ECONNRESET: the peer is gone).
  case failed(errno: Int32)
}

/// Socket calls, wrapped once.
package enum SocketCalls {
  /// Non-blocking and close-on-exec; on Darwin, no SIGPIPE from a write to a closed peer (on
  /// Linux each send asks for that itself).
  package static func makeNonBlocking(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL, 0) | O_NONBLOCK)
    #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// Turns Nagle's delay off: a small answer leaves at once instead of waiting for an
  /// acknowledgement of the last one.
  package static func disableNagle(_ descriptor: Int32) {
    var one: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Sends what the socket takes of `bytes` from `offset` (more than `offset` must be left).
  package static func send(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int) -> SocketTransfer {
    while true {
      let sent = bytes.withUnsafeBytes { raw in
        #if canImport(Glibc)
          Glibc.send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
        #else
          Darwin.send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, 0)
        #endif
      }
      if sent > 0 { return .moved(sent) }
      if sent == 0 { return .wouldBlock }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: return .failed(errno: code)
      }
    }
  }

  /// Reads what has arrived into `buffer` (from its start).
  package static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> SocketTransfer {
    while true {
      let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
      if count > 0 { return .moved(count) }
      if count == 0 { return .endOfStream }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: return .failed(errno: code)
      }
    }
  }
}
