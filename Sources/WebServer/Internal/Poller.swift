// Readiness of many descriptors at once: epoll on Linux (through CEpoll, since Glibc's module
// lacks sys/epoll.h), poll(2) elsewhere. Level-triggered: a descriptor is reported for as long as
// it is ready and asked for, so the loop changes what it asks for rather than tracking edges.

import LineIO

#if canImport(CEpoll) && os(Linux)
  import CEpoll
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a descriptor is watched for, and what it was found ready for.
struct Readiness: OptionSet, Hashable {
  let rawValue: UInt8
  static let readable = Readiness(rawValue: 1)
  static let writable = Readiness(rawValue: 2)
  /// The connection is gone both ways or failed (reported whether asked for or not).
  static let hangUp = Readiness(rawValue: 4)
}

/// A set of descriptors, each with a token, waited on together. Used from the loop's thread only.
final class Poller {
  #if canImport(CEpoll) && os(Linux)
    private let epoll: Int32
    private var ready = [cepoll_ready](repeating: cepoll_ready(), count: 256)
  #else
    private var watched: [Int32: (token: UInt64, interest: Readiness)] = [:]
  #endif

  /// A poller, or nil when the system has none left to give (EMFILE).
  init?() {
    #if canImport(CEpoll) && os(Linux)
      epoll = cepoll_create()
      if epoll < 0 { return nil }
    #endif
  }

  deinit {
    #if canImport(CEpoll) && os(Linux)
      close(epoll)
    #endif
  }

  /// Starts watching `descriptor` for `interest`.
  func add(_ descriptor: Int32, token: UInt64, interest: Readiness) {
    #if canImport(CEpoll) && os(Linux)
      _ = cepoll_control(epoll, 0, descriptor, Self.events(interest), token)
    #else
      watched[descriptor] = (token, interest)
    #endif
  }

  /// Watches `descriptor` for `interest` from now on.
  func change(_ descriptor: Int32, token: UInt64, interest: Readiness) {
    #if canImport(CEpoll) && os(Linux)
      _ = cepoll_control(epoll, 1, descriptor, Self.events(interest), token)
    #else
      watched[descriptor] = (token, interest)
    #endif
  }

  /// Stops watching `descriptor` (before it is closed).
  func remove(_ descriptor: Int32) {
    #if canImport(CEpoll) && os(Linux)
      _ = cepoll_control(epoll, 2, descriptor, 0, 0)
    #else
      watched[descriptor] = nil
    #endif
  }

  /// Blocks until some descriptor is ready (or a signal interrupts), then calls `body` with each
  /// ready token and what it is ready for.
  func wait(_ body: (UInt64, Readiness) -> Void) {
    #if canImport(CEpoll) && os(Linux)
      let count = ready.withUnsafeMutableBufferPointer { cepoll_wait(epoll, $0.baseAddress, Int32($0.count), -1) }
      guard count > 0 else { return }
      for index in 0..<Int(count) {
        let events = ready[index].events
        var found: Readiness = []
        // The peer's half-close is found by reading (end of stream), so it counts as readable.
        if events & (cepoll_in | cepoll_rdhup) != 0 { found.insert(.readable) }
        if events & cepoll_out != 0 { found.insert(.writable) }
        if events & (cepoll_hup | cepoll_err) != 0 { found.insert(.hangUp) }
        body(ready[index].token, found)
      }
    #else
      let order = Array(watched)
      var entries = order.map { descriptor, entry in
        var events: Int16 = 0
        if entry.interest.contains(.readable) { events |= Int16(POLLIN) }
        if entry.interest.contains(.writable) { events |= Int16(POLLOUT) }
        return pollfd(fd: descriptor, events: events, revents: 0)
      }
      let count = poll(&entries, nfds_t(entries.count), -1)
      guard count > 0 else { return }
      for (index, entry) in entries.enumerated() where entry.revents != 0 {
        var found: Readiness = []
        if entry.revents & Int16(POLLIN) != 0 { found.insert(.readable) }
        if entry.revents & Int16(POLLOUT) != 0 { found.insert(.writable) }
        if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { found.insert(.hangUp) }
        body(order[index].value.token, found)
      }
    #endif
  }

  #if canImport(CEpoll) && os(Linux)
    private static func events(_ interest: Readiness) -> UInt32 {
      var events: UInt32 = 0
      // The half-close only when reading: reported while not reading, it would be reported
      // again at every wait.
      if interest.contains(.readable) { events |= cepoll_in | cepoll_rdhup }
      if interest.contains(.writable) { events |= cepoll_out }
      return events
    }
  #endif
}

/// Wakes the loop from another thread: an eventfd on Linux, a pipe elsewhere.
final class WakeSignal: Sendable {
  /// The end the poller watches.
  let readEnd: Int32
  private let writeEnd: Int32

  /// A signal, or nil when no descriptor is left.
  init?() {
    #if canImport(CEpoll) && os(Linux)
      let descriptor = cepoll_eventfd()
      guard descriptor >= 0 else { return nil }
      readEnd = descriptor
      writeEnd = descriptor
    #else
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else { return nil }
      SocketCalls.makeNonBlocking(ends[0])
      SocketCalls.makeNonBlocking(ends[1])
      readEnd = ends[0]
      writeEnd = ends[1]
    #endif
  }

  deinit {
    close(readEnd)
    if writeEnd != readEnd { close(writeEnd) }
  }

  /// Makes the read end readable.
  func fire() {
    var one: UInt64 = 1
    _ = withUnsafeBytes(of: &one) { write(writeEnd, $0.baseAddress, $0.count) }
  }

  /// Empties the read end.
  func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
  }
}
