// A hostile client's socket: it sends exactly the bytes a test chooses (a head cut short, a frame
// with a bad bit) and reads with a bound, so a server that never answers fails the test instead
// of hanging it. Blocking calls run on threads of their own, never the task threads.
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct ClientSocketError: Error, CustomStringConvertible {
  var description: String
}

final class RawClient: @unchecked Sendable {
  let descriptor: Int32
  /// What has been read and not yet taken by a read method.
  private var pending: [UInt8] = []
  /// The server closed its side (end of stream or reset).
  private(set) var sawEnd = false

  /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer first
  /// (a client that stops reading then fills up sooner).
  init(port: UInt16, receiveBuffer: Int32? = nil) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw ClientSocketError(description: "socket: errno \(errno)") }
    if var size = receiveBuffer {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else {
      close(descriptor)
      throw ClientSocketError(description: "connect to \(port): errno \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Sends all of `bytes` (blocking; the server reads).
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw ClientSocketError(description: "send: errno \(errno)") }
      offset += sent
    }
  }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// Reads until `done` says the bytes so far are enough (they are returned and taken), the
  /// server closes, or `bound` passes; returns what was read.
  func read(within bound: Duration = hangBound, until done: ([UInt8]) -> Int?) -> [UInt8]? {
    let deadline = ContinuousClock.now.advanced(by: bound)
    while true {
      if let used = done(pending) {
        let taken = Array(pending[0..<used])
        pending.removeFirst(used)
        return taken
      }
      if sawEnd { return nil }
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return nil }
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
      guard poll(&entry, 1, max(1, milliseconds)) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        pending.append(contentsOf: chunk[0..<count])
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        sawEnd = true
      }
    }
  }

  /// Whether the server closes the connection within `bound` (what it sends first is dropped).
  func readsEnd(within bound: Duration = hangBound) -> Bool {
    _ = read(within: bound) { _ in nil }
    return sawEnd
  }

  /// One HTTP response (head and Content-Length body), or nil.
  func readResponse(within bound: Duration = hangBound) -> (status: Int, head: String, body: String)? {
    guard
      let bytes = read(
        within: bound,
        until: { bytes in
          guard let end = Self.headEnd(bytes) else { return nil }
          let head = String(decoding: bytes[0..<end], as: UTF8.self)
          let length = Self.contentLength(head) ?? 0
          return bytes.count >= end + length ? end + length : nil
        })
    else { return nil }
    let end = Self.headEnd(bytes) ?? bytes.count
    let head = String(decoding: bytes[0..<end], as: UTF8.self)
    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return (status, head, String(decoding: bytes[end...], as: UTF8.self))
  }

  static func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
      return index + 4
    }
    return nil
  }

  static func contentLength(_ head: String) -> Int? {
    for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
      return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }
}
