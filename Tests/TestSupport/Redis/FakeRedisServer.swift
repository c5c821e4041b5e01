// A "Redis" on loopback that reads real commands and answers each as a test decides: like Redis
// for some, with a reply of the wrong type, with silence, or by closing the connection. What a
// misconfigured proxy or a hung server does to a client that got past its first command.
import Foundation
import RESP
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP server on 127.0.0.1 that parses each command and answers it through `answer`.
///
/// ```swift
/// let server = try FakeRedisServer { command in
///   command.first == "XADD" ? .reply(":1\r\n") : FakeRedisServer.configuration(command, shards: 4)
/// }
/// defer { server.stop() }
/// ```
///
/// Each connection is served on a thread of its own; ``stop()`` ends every one at once.
public final class FakeRedisServer: Sendable {
  /// How the server answers one command.
  public enum Answer: Sendable {
    /// These bytes (one RESP reply, or several).
    case reply(String)
    /// Nothing, for this command and every later one on the connection (which stays open).
    case silence
    /// Close the connection without answering.
    case close
  }

  private let answer: @Sendable ([String]) -> Answer
  private let listenDescriptor: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let threadsDone = DispatchGroup()
  private let stopped = Mutex(false)
  private let state = Mutex(State())
  /// The port it listens on.
  public let port: UInt16

  /// Starts listening; `answer` gets each command's name (upper case) and arguments.
  public init(answer: @escaping @Sendable ([String]) -> Answer) throws {
    self.answer = answer
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

  private struct Waiter {
    let id: Int
    let condition: @Sendable ([String]) -> Bool
    let continuation: CheckedContinuation<Bool, Never>
  }

  private struct State {
    var commands: [[String]] = []
    var waiters: [Waiter] = []
    var nextWaiter = 0
  }

  /// The commands received so far, in order, from every connection.
  public var commands: [[String]] { state.withLock { $0.commands } }

  /// Waits until a command satisfying `condition` has been received, at most `limit`; false
  /// when none came.
  public func waitForCommand(within limit: Duration, where condition: @escaping @Sendable ([String]) -> Bool) async
    -> Bool
  {
    let id = state.withLock { state -> Int in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let now = state.withLock { state -> Bool in
        if state.commands.contains(where: condition) { return true }
        state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
        return false
      }
      if now {
        continuation.resume(returning: true)
        return
      }
      // The bound: a command that never comes fails the wait, never hangs it.
      Task { [weak self] in
        try? await Task.sleep(for: limit)
        let waiter = self?.state.withLock { state -> Waiter? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
      }
    }
  }

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

  /// What Redis answers to the commands that read and create a prefix's configuration, for a
  /// prefix holding `shards` shards (format 1); `+OK` to anything else.
  public static func configuration(_ command: [String], shards: Int) -> Answer {
    switch command.first {
    case "HSETNX": .reply(":0\r\n")
    case "HMGET": .reply("*2\r\n$\(String(shards).utf8.count)\r\n\(shards)\r\n$1\r\n1\r\n")
    case "HGET": .reply("$\(String(shards).utf8.count)\r\n\(shards)\r\n")
    case "SCRIPT": .reply("$40\r\n\(String(repeating: "0", count: 40))\r\n")
    default: .reply("+OK\r\n")
    }
  }

  private func acceptLoop() {
    while Socket.wait(listenDescriptor, for: Int16(POLLIN), wakeFD: wakeRead, until: nil) == .ready {
      let connection = accept(listenDescriptor, nil, nil)
      guard connection >= 0 else { continue }
      Socket.setNonBlocking(connection)
      threadsDone.enter()
      Thread.detachNewThread { [self] in
        serve(connection)
        threadsDone.leave()
      }
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    var parser = RESPParser()
    var silent = false
    var bytes: [UInt8] = []
    while Socket.wait(connection, for: Int16(POLLIN), wakeFD: wakeRead, until: nil) == .ready {
      bytes.removeAll(keepingCapacity: true)
      guard Socket.receive(connection, into: &bytes) == .ready else { return }
      parser.append(bytes)
      var out: [UInt8] = []
      while let value = try? parser.next() {
        guard let parts = value.array else { return }
        var command = parts.compactMap(\.string)
        if !command.isEmpty { command[0] = command[0].uppercased() }
        let satisfied = state.withLock { state -> [Waiter] in
          state.commands.append(command)
          let met = state.waiters.filter { $0.condition(command) }
          state.waiters.removeAll { $0.condition(command) }
          return met
        }
        for waiter in satisfied { waiter.continuation.resume(returning: true) }
        guard !silent else { continue }
        switch answer(command) {
        case .reply(let text): out += Array(text.utf8)
        case .silence: silent = true
        case .close:
          if !out.isEmpty { _ = Socket.sendAll(connection, out, wakeFD: wakeRead) }
          return
        }
      }
      if !out.isEmpty, Socket.sendAll(connection, out, wakeFD: wakeRead) != .ready { return }
    }
  }
}
