// A server on loopback that answers every connection's first request with bytes a test chose:
// malformed, truncated, absurdly large, nested, endless, or nothing at all. What a hostile or
// broken "Redis" can send, so the client's refusals are tested on a real socket.
import Foundation
import RESP
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP server on 127.0.0.1 that sends scripted bytes in place of Redis's replies.
///
/// ```swift
/// let server = try ScriptedRESPServer(reply: Array("$2000000000\r\n".utf8), then: .keepOpen)
/// defer { server.stop() }
/// let connection = try RESPConnection(endpoint: server.endpoint)
/// #expect(throws: RESPError.self) { try connection.call(RESPCommand("GET", "k")) }
/// ```
///
/// Each connection is served on a thread of its own: once the client's first bytes arrive, the
/// reply is sent, then the ending is carried out. Waits are poll(2) calls that also watch a wake
/// pipe, so ``stop()`` ends every one at once.
public final class ScriptedRESPServer: Sendable {
  /// What the server does after sending the reply.
  public enum Ending: Sendable {
    /// Keep the connection open, reading and discarding, until the client closes it.
    case keepOpen
    /// Close it (FIN).
    case close
    /// Reset it (RST).
    case reset
    /// Send these bytes again and again until the client closes the connection.
    case repeatForever([UInt8])
  }

  private let reply: [UInt8]
  private let ending: Ending
  private let listenDescriptor: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let threadsDone = DispatchGroup()
  private let stopped = Mutex(false)
  private let accepted = Mutex(0)
  /// The port it listens on.
  public let port: UInt16

  /// Starts listening and accepting at once.
  public init(reply: [UInt8], then ending: Ending = .keepOpen) throws {
    self.reply = reply
    self.ending = ending
    (listenDescriptor, port) = try Socket.listenOnLoopback()
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SocketError(call: "pipe", code: errno) }
    wakeRead = ends[0]
    wakeWrite = ends[1]
    Socket.setNonBlocking(listenDescriptor)
    threadsDone.enter()
    Thread.detachNewThread { [self] in
      acceptLoop()
      threadsDone.leave()
    }
  }

  /// `redis://127.0.0.1:<port>`.
  public var url: String { "redis://127.0.0.1:\(port)" }

  /// Where the client connects.
  public var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }

  /// Connections accepted so far.
  public var connectionCount: Int { accepted.withLock { $0 } }

  /// Stops accepting, ends every connection and waits for their threads. Safe to call twice.
  public func stop() {
    let first = stopped.withLock { stopped -> Bool in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
    threadsDone.wait()
    close(listenDescriptor)
    close(wakeRead)
    close(wakeWrite)
  }

  deinit { stop() }

  private func acceptLoop() {
    while Socket.wait(listenDescriptor, for: Int16(POLLIN), wakeFD: wakeRead, until: nil) == .ready {
      let connection = accept(listenDescriptor, nil, nil)
      guard connection >= 0 else { continue }
      accepted.withLock { $0 += 1 }
      Socket.setNonBlocking(connection)
      threadsDone.enter()
      Thread.detachNewThread { [self] in
        serve(connection)
        threadsDone.leave()
      }
    }
  }

  private func serve(_ connection: Int32) {
    var received: [UInt8] = []
    guard Socket.wait(connection, for: Int16(POLLIN), wakeFD: wakeRead, until: nil) == .ready,
      Socket.receive(connection, into: &received) == .ready,
      Socket.sendAll(connection, reply, wakeFD: wakeRead) == .ready
    else {
      close(connection)
      return
    }
    switch ending {
    case .close:
      close(connection)
    case .reset:
      Socket.setResetOnClose(connection)
      close(connection)
    case .keepOpen:
      while Socket.wait(connection, for: Int16(POLLIN), wakeFD: wakeRead, until: nil) == .ready,
        Socket.receive(connection, into: &received) == .ready
      {
        received.removeAll(keepingCapacity: true)
      }
      close(connection)
    case .repeatForever(let chunk):
      while Socket.sendAll(connection, chunk, wakeFD: wakeRead) == .ready {}
      close(connection)
    }
  }
}
