// One thread's share of the WebSocket sessions of SessionLoad: opened (handshake) as it is made,
// then driven by ``LoadThread/loop()``: keys sent when due (a heap of due times), frames read
// when epoll says so. Client frames are masked, as RFC 6455 requires of a client; the mask is
// fixed, which the server cannot tell from a random one.
import CEpoll
import Foundation

/// The sessions one thread drives; used by that thread only once made.
final class LoadThread: @unchecked Sendable {
  /// What the thread measured.
  struct Result {
    var latencies: [Double] = []
    var refused = 0
    var unanswered = 0
    var keys = 0
  }

  private struct Session {
    var socket: Int32
    var word = 0
    var typed = 0
    var lastKey: UInt64 = 0
    var waiting = false
    var done = false
    var buffer: [UInt8] = []
  }

  private let load: SessionLoad
  private let first: Int
  private let epoll: Int32
  private var sessions: [Session] = []
  private var due = DueHeap()
  private var result = Result()
  private var remaining = 0

  /// Opens `count` sessions; those the server refuses are counted, not fatal.
  init(load: SessionLoad, first: Int, count: Int) throws {
    self.load = load
    self.first = first
    epoll = cepoll_create()
    guard epoll >= 0 else { throw BenchmarkFailure(description: "epoll_create: errno \(errno)") }
    let start = monotonicNanoseconds()
    let interval = UInt64(nanoseconds(load.keyInterval))
    for index in 0..<count {
      guard let socket = Self.handshake(port: load.port) else {
        result.refused += 1
        continue
      }
      _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
      let slot = sessions.count
      _ = cepoll_control(epoll, 0, socket, cepoll_in, UInt64(slot))
      sessions.append(Session(socket: socket, word: 0))
      // First keys spread over one key interval, so that the keys of all sessions are too.
      due.push(start + interval * UInt64(index) / UInt64(max(count, 1)), slot)
    }
    remaining = sessions.count
  }

  /// Types every session's words; returns when all are answered or the run's limit passed.
  func loop() -> Result {
    let deadline = monotonicNanoseconds() + UInt64(nanoseconds(load.limit))
    let interval = UInt64(nanoseconds(load.keyInterval))
    var ready = [cepoll_ready](repeating: cepoll_ready(), count: 256)
    // The heap's times were set while sessions opened: a late start moves them all.
    let shift = monotonicNanoseconds()
    due.shift(to: shift)
    while remaining > 0 {
      var now = monotonicNanoseconds()
      if now >= deadline { break }
      while let (time, slot) = due.peek(), time <= now {
        due.pop()
        if !sessions[slot].done, let next = sendKey(slot, at: now) { due.push(max(time + interval, now), next) }
        now = monotonicNanoseconds()
      }
      let wait = due.peek().map { Int32(min(100, ($0.time > now ? $0.time - now : 0) / 1_000_000)) } ?? 100
      let count = cepoll_wait(epoll, &ready, Int32(ready.count), wait)
      guard count > 0 else { continue }
      let arrival = monotonicNanoseconds()
      for entry in ready[0..<Int(count)] { receive(Int(entry.token), at: arrival, interval: interval) }
    }
    for session in sessions {
      if !session.done { result.unanswered += load.wordsPerSession - session.word }
      close(session.socket)
    }
    close(epoll)
    return result
  }

  /// Sends the session's next key; returns the slot again if another key of the word follows.
  private func sendKey(_ slot: Int, at now: UInt64) -> Int? {
    let word = SessionLoad.words[(first + slot + sessions[slot].word * 7) % SessionLoad.words.count]
    sessions[slot].typed += 1
    let frame = Self.textFrame(Array(word.utf8.prefix(sessions[slot].typed)))
    let sent = frame.withUnsafeBytes { send(sessions[slot].socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    guard sent == frame.count else {
      fail(slot)
      return nil
    }
    result.keys += 1
    guard sessions[slot].typed == word.utf8.count else { return slot }
    sessions[slot].lastKey = monotonicNanoseconds()
    sessions[slot].waiting = true
    return nil
  }

  /// Reads what the socket has; a `results` frame for the word typed ends the wait for it.
  private func receive(_ slot: Int, at arrival: UInt64, interval: UInt64) {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while !sessions[slot].done {
      let count = chunk.withUnsafeMutableBytes { recv(sessions[slot].socket, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        sessions[slot].buffer += chunk[0..<count]
      } else {
        // The server closed the connection (0), or it failed: the session's words go unanswered.
        if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { fail(slot) }
        break
      }
    }
    while let (opcode, payload, length) = Self.frame(in: sessions[slot].buffer) {
      sessions[slot].buffer.removeFirst(length)
      guard opcode == 1, sessions[slot].waiting, !sessions[slot].done else { continue }
      let word = SessionLoad.words[(first + slot + sessions[slot].word * 7) % SessionLoad.words.count]
      guard payload.starts(with: Array(#"{"type":"results""#.utf8)),
        String(decoding: payload, as: UTF8.self).contains(#""term":"\#(word)""#)
      else { continue }
      let latency = Double(arrival - sessions[slot].lastKey) / 1e6 - nanoseconds(load.debounce) / 1e6
      result.latencies.append(latency)
      sessions[slot].waiting = false
      sessions[slot].typed = 0
      sessions[slot].word += 1
      if sessions[slot].word == load.wordsPerSession {
        sessions[slot].done = true
        remaining -= 1
      } else {
        due.push(arrival + interval, slot)
      }
    }
  }

  /// Ends a session that can go no further: its words left count as unanswered.
  private func fail(_ slot: Int) {
    guard !sessions[slot].done else { return }
    sessions[slot].done = true
    result.unanswered += load.wordsPerSession - sessions[slot].word
    remaining -= 1
    _ = cepoll_control(epoll, 2, sessions[slot].socket, 0, 0)
  }

  /// A complete server frame at the start of `bytes`: opcode, payload, and the frame's length.
  private static func frame(in bytes: [UInt8]) -> (UInt8, ArraySlice<UInt8>, Int)? {
    guard bytes.count >= 2 else { return nil }
    var length = Int(bytes[1] & 0x7F)
    var header = 2
    if length == 126 {
      guard bytes.count >= 4 else { return nil }
      length = Int(bytes[2]) << 8 | Int(bytes[3])
      header = 4
    } else if length == 127 {
      guard bytes.count >= 10 else { return nil }
      length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
      header = 10
    }
    guard bytes.count >= header + length else { return nil }
    return (bytes[0] & 0x0F, bytes[header..<(header + length)], header + length)
  }

  /// A masked text frame (keys are short: under 126 bytes).
  private static func textFrame(_ payload: [UInt8]) -> [UInt8] {
    let mask: [UInt8] = [0x5A, 0x21, 0xC3, 0x7E]
    return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
  }

  /// A blocking connect and upgrade to /ws; the socket once the answer is 101, else nil.
  private static func handshake(port: UInt16) -> Int32? {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    var one: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    // A server that never answers the upgrade must not hang the benchmark.
    var patience = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
    let request = Array(
      ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
    guard connected == 0, request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count
    else {
      close(socket)
      return nil
    }
    // The answer's head, read a byte at a time so that nothing after it is consumed.
    var head: [UInt8] = []
    var byte: UInt8 = 0
    while !head.suffix(4).elementsEqual([13, 10, 13, 10]), head.count < 4096, recv(socket, &byte, 1, 0) == 1 {
      head.append(byte)
    }
    guard head.starts(with: Array("HTTP/1.1 101".utf8)) else {
      close(socket)
      return nil
    }
    return socket
  }
}
