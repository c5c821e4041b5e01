// FileDescriptorWriter against real pipes: more than a pipe holds arrives whole while another
// thread reads, a full non-blocking pipe is waited out, signals that interrupt the write lose
// nothing, a closed reader gives `.closed`, and a stop ends a write blocked on a full pipe.
import Foundation
import LineIO
import Synchronization
import TestSupport
import Testing

@Suite struct FileDescriptorWriterTests {
  /// Bytes that are not all alike, so a lost or repeated chunk shows.
  private func pattern(_ count: Int, _ factor: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* factor) }
  }

  /// Reads `descriptor` on a thread of its own until end of file. (Not a task: a reader blocked in
  /// read(2) would hold a thread of the cooperative pool.)
  private func startReading(_ descriptor: Int32) -> PipeDrain {
    let drain = PipeDrain()
    Thread { drain.finish(readToEnd(descriptor)) }.start()
    return drain
  }

  /// Writes `bytes` into a new pipe while another thread reads it; returns what was read.
  private func roundTrip(_ bytes: [UInt8], nonBlocking: Bool) throws -> [UInt8] {
    let pipe = try TestPipe()
    defer { close(pipe.readEnd) }
    if nonBlocking { _ = fcntl(pipe.writeEnd, F_SETFL, fcntl(pipe.writeEnd, F_GETFL) | O_NONBLOCK) }
    let drain = startReading(pipe.readEnd)
    try FileDescriptorWriter(fileDescriptor: pipe.writeEnd).write(bytes)
    close(pipe.writeEnd)
    return try drain.bytes()
  }

  // 256 KiB: four times a Linux pipe's default buffer, so the kernel takes it in partial writes.
  @Test func writesMoreThanThePipeHoldsWhileAnotherThreadReads() throws {
    let bytes = pattern(1 << 18, 31)
    #expect(try roundTrip(bytes, nonBlocking: false) == bytes)
  }

  @Test func waitsOutAFullNonBlockingPipeInsteadOfFailing() throws {
    let bytes = pattern(1 << 18, 7)
    #expect(try roundTrip(bytes, nonBlocking: true) == bytes)
  }

  @Test func aClosedReaderGivesClosedEveryTime() throws {
    signal(SIGPIPE, SIG_IGN)
    let pipe = try TestPipe()
    defer { close(pipe.writeEnd) }
    close(pipe.readEnd)
    let writer = FileDescriptorWriter(fileDescriptor: pipe.writeEnd)
    #expect(throws: OutputError.closed) { try writer.write(Array("first\n".utf8)) }
    #expect(throws: OutputError.closed) { try writer.write(Array("second\n".utf8)) }
    #expect(OutputError.closed.description == "output closed")
  }

  @Test func otherFailuresCarryTheirErrno() throws {
    let readOnly = open("/dev/null", O_RDONLY)
    try #require(readOnly >= 0)
    defer { close(readOnly) }
    #expect(throws: OutputError.failed(errno: EBADF)) {
      try FileDescriptorWriter(fileDescriptor: readOnly).write([1])
    }
    #expect(OutputError.failed(errno: EBADF).description == String(cString: strerror(EBADF)))
  }

  @Test func aStopEndsAWriteBlockedOnAFullPipe() throws {
    let pipe = try TestPipe()
    defer { pipe.closeBoth() }
    fill(pipe.writeEnd)
    let stop = try CancellationSignal()
    let writer = FileDescriptorWriter(fileDescriptor: pipe.writeEnd, stoppingOn: stop)
    let outcome = WriteOutcome()
    Thread { outcome.finish(Result { () throws(OutputError) in try writer.write([1, 2, 3]) }) }.start()
    stop.signal()
    // Bounded: a writer that ignored the stop would block here for ever.
    let result = try #require(outcome.wait(atMost: hangBound), "the write did not return after the stop")
    #expect(throws: OutputError.stopped) { try result.get() }
  }

  @Test func roomWinsOverTheStopSoWhatCanBeWrittenIs() throws {
    let pipe = try TestPipe()
    let stop = try CancellationSignal()
    stop.signal()
    try FileDescriptorWriter(fileDescriptor: pipe.writeEnd, stoppingOn: stop).write(Array("last words\n".utf8))
    close(pipe.writeEnd)
    #expect(readToEnd(pipe.readEnd) == Array("last words\n".utf8))
    close(pipe.readEnd)
  }

  @Test func aStopIsIgnoredWhereNothingBlocks() throws {
    let null = open("/dev/null", O_WRONLY)
    try #require(null >= 0)
    defer { close(null) }
    let stop = try CancellationSignal()
    stop.signal()
    try FileDescriptorWriter(fileDescriptor: null, stoppingOn: stop).write(pattern(1 << 16, 3))
  }

  #if os(Linux)
    // A handler installed without SA_RESTART makes a write blocked on a full pipe return early: with
    // EINTR when it had written nothing yet, else with a partial count. Either way nothing is lost.
    @Test func signalsThatInterruptTheWriteLoseNothing() throws {
      let pipe = try TestPipe()
      defer { close(pipe.readEnd) }
      let delivered = try TestPipe()
      defer { delivered.closeBoth() }
      installInterruptingHandler(reportingTo: delivered.writeEnd)
      defer { deliveryReport.store(-1, ordering: .releasing) }
      let prefix = fill(pipe.writeEnd)
      let payload = pattern(1 << 17, 13)
      let writerThread = WriterThread()
      let outcome = WriteOutcome()
      Thread {
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        writerThread.set(pthread_self())
        outcome.finish(
          Result { () throws(OutputError) in
            try FileDescriptorWriter(fileDescriptor: pipe.writeEnd).write(payload)
          })
      }.start()
      // Interrupt the writer, blocked on the full pipe, a few times, each delivery confirmed.
      for _ in 0..<5 {
        guard let thread = try waitFor(writerThread.get) else { break }
        pthread_kill(thread, SIGUSR1)
        try #require(waitReadable(delivered.readEnd, atMost: hangBound), "the signal was not delivered")
        var byte: UInt8 = 0
        _ = read(delivered.readEnd, &byte, 1)
      }
      let drain = startReading(pipe.readEnd)
      let result = try #require(outcome.wait(atMost: hangBound), "the interrupted write did not finish")
      try result.get()
      close(pipe.writeEnd)
      #expect(try drain.bytes() == prefix + payload)
    }
  #endif
}

/// Fills a pipe's buffer through a non-blocking write end, then makes it blocking again; returns
/// what was written.
@discardableResult
private func fill(_ writeEnd: Int32) -> [UInt8] {
  let flags = fcntl(writeEnd, F_GETFL)
  _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
  defer { _ = fcntl(writeEnd, F_SETFL, flags) }
  var written: [UInt8] = []
  let chunk = [UInt8](repeating: 0x2A, count: 4_096)
  while true {
    let count = chunk.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
    if count > 0 {
      written += chunk[0..<count]
    } else if count < 0 && errno == EINTR {
      continue
    } else {
      return written
    }
  }
}

/// Whether `descriptor` became readable within `bound` (a bounded real-time wait).
private func waitReadable(_ descriptor: Int32, atMost bound: Duration) -> Bool {
  var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
  while true {
    let ready = poll(&entry, 1, Int32(clamping: bound.components.seconds * 1_000))
    if ready < 0 && errno == EINTR { continue }
    return ready > 0
  }
}

/// `value()` once it is not nil, asking again until ``hangBound`` has passed.
private func waitFor<Value>(_ value: () -> Value?) throws -> Value? {
  let deadline = ContinuousClock.now + hangBound
  while ContinuousClock.now < deadline {
    if let found = value() { return found }
    sched_yield()
  }
  Issue.record("timed out after \(hangBound)")
  return nil
}

/// What the thread that read a pipe to its end received.
private final class PipeDrain: Sendable {
  private let received = Mutex<[UInt8]?>(nil)
  private let done = DispatchSemaphore(value: 0)

  func finish(_ bytes: [UInt8]) {
    received.withLock { $0 = bytes }
    done.signal()
  }

  /// The bytes, waiting at most ``hangBound`` for the reader to reach end of file.
  func bytes() throws -> [UInt8] {
    let ended = done.wait(timeout: .now() + dispatchInterval(hangBound)) == .success
    try #require(ended, "the reader did not reach end of file")
    return received.withLock { $0 } ?? []
  }
}

/// How a write on another thread ended.
private final class WriteOutcome: Sendable {
  private let result = Mutex<Result<Void, OutputError>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  func finish(_ outcome: Result<Void, OutputError>) {
    result.withLock { $0 = outcome }
    done.signal()
  }

  /// The outcome, or nil when the write has not ended within `bound`.
  func wait(atMost bound: Duration) -> Result<Void, OutputError>? {
    guard done.wait(timeout: .now() + dispatchInterval(bound)) == .success else { return nil }
    return result.withLock { $0 }
  }
}

#if os(Linux)
  /// The thread a write runs on, once it has started.
  private final class WriterThread: Sendable {
    private let thread = Mutex<pthread_t?>(nil)

    func set(_ value: pthread_t) { thread.withLock { $0 = value } }
    func get() -> pthread_t? { thread.withLock { $0 } }
  }

  /// The descriptor the SIGUSR1 handler reports each delivery to (a write is async-signal-safe).
  private let deliveryReport = Atomic<Int32>(-1)

  /// Handles SIGUSR1 without SA_RESTART, so that it interrupts a blocked write(2).
  private func installInterruptingHandler(reportingTo descriptor: Int32) {
    deliveryReport.store(descriptor, ordering: .releasing)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      var byte: UInt8 = 1
      _ = write(deliveryReport.load(ordering: .acquiring), &byte, 1)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(SIGUSR1, &action, nil)
  }
#endif
