// Section 1 with our own element source: LineReader over a pipe, written by a thread of its
// own. AsyncStream alone costs more per element than the targets allow the whole chain, so the
// operators are measured over this source too.
import Foundation
import LineIO
import Streams

/// Writes lines into pipes from threads and reads them back with LineReader.
struct LinePipeWorkload: Sendable {
  let pool: ElementPool

  /// The lines `element(0..<n)`, built before timing.
  func payload(_ n: Int, _ element: (Int) -> String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(n * 24)
    for index in 0..<n {
      bytes.append(contentsOf: element(index).utf8)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }

  /// (a) the lines of `payload` read and counted.
  func baseline(_ payload: [UInt8], lines n: Int) async throws {
    try await withLines(payload) { lines in
      var received = 0
      for try await _ in lines { received += 1 }
      try check("LineReader lines", received, equals: n)
    }
  }

  /// (b) + removeDuplicates; `payload` repeats every line once.
  func removeDuplicates(_ payload: [UInt8], lines n: Int) async throws {
    try await withLines(payload) { lines in
      var received = 0
      for try await _ in lines.removeDuplicates() { received += 1 }
      try check("LineReader + removeDuplicates lines", received, equals: (n + 1) / 2)
    }
  }

  /// (c) + debounce(50 ms): a writer task writes each burst of lines, then pauses 60 ms on the
  /// clock. A burst (about 25 KB) fits in a pipe's 64 KB buffer while the reader keeps up, so
  /// the blocking write does not hold up the cooperative thread for long.
  func debounce(_ bursts: [[UInt8]]) async throws {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw BenchmarkFailure(description: "pipe() failed: errno \(errno)") }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { close(readEnd) }
    let clock = ContinuousClock()
    let writer = Task(inheritingExecutor: {
      for burst in bursts {
        try? FileDescriptorWriter(fileDescriptor: writeEnd).write(burst)
        try? await clock.sleep(for: .milliseconds(60))
      }
      close(writeEnd)
    })
    var received = 0
    for try await _ in Self.texts(readEnd).debounce(for: .milliseconds(50), clock: clock) { received += 1 }
    await writer.value
    // As in OperatorWorkloads: live, a late timer can merge two bursts.
    guard (1...bursts.count).contains(received) else {
      throw BenchmarkFailure(description: "LineReader debounce outputs: \(received) for \(bursts.count) bursts")
    }
  }

  /// The last line of the switchMap payload: its child answers at once, so the sequence ends.
  static let lastLine = "the last element"

  /// (d) + switchMap, every element superseding the previous child (see OperatorWorkloads); the
  /// payload ends with ``lastLine``.
  func switchMap(_ payload: [UInt8], lines n: Int) async throws {
    let clock = ContinuousClock()
    try await withLines(payload) { lines in
      var started = 0
      let events = lines.switchMap { (input: String, emit: SwitchMapEmitter<Int>) in
        if input != Self.lastLine { try? await clock.sleep(for: .seconds(3_600)) }
      }
      for try await event in events {
        if case .started = event { started += 1 }
      }
      try check("LineReader + switchMap starts", started, equals: n)
    }
  }

  /// (e) merge of three readers of a third each.
  func merge3(_ payloads: [[UInt8]], lines n: Int) async throws {
    var descriptors: [Int32] = []
    defer { for descriptor in descriptors { close(descriptor) } }
    for payload in payloads { descriptors.append(try startWriter(payload)) }
    var received = 0
    for try await _ in merge(descriptors.map(Self.texts)) { received += 1 }
    try check("merged LineReader lines", received, equals: n)
  }

  private func withLines(
    _ payload: [UInt8], _ body: (LineTexts) async throws -> Void
  ) async throws {
    let descriptor = try startWriter(payload)
    defer { close(descriptor) }
    try await body(Self.texts(descriptor))
  }

  private static func texts(_ descriptor: Int32) -> LineTexts {
    LineTexts(reader: LineReader(fileDescriptor: descriptor))
  }

  /// A pipe whose write end a new thread fills with `payload` and closes; returns the read end.
  private func startWriter(_ payload: [UInt8]) throws -> Int32 {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw BenchmarkFailure(description: "pipe() failed: errno \(errno)") }
    let writeEnd = ends[1]
    let writer = Thread {
      try? FileDescriptorWriter(fileDescriptor: writeEnd).write(payload)
      close(writeEnd)
    }
    writer.start()
    return ends[0]
  }
}
