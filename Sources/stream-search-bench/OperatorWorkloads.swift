// The operator workloads of the operator sections, generic over the clock so that the same code runs live
// (ContinuousClock) and inside a VirtualTimeRunner (its ManualClock). Producers are tasks that
// yield into AsyncStreams; the consumer is the calling task. Each checks what it received.
import Streams

/// The elements: 1,000 prebuilt strings, so that building them is not measured.
struct ElementPool: Sendable {
  let strings: [String]

  init(count: Int = 1_000) {
    strings = (0..<count).map { "element-\($0)-\(String(repeating: "x", count: $0 % 17))" }
  }

  subscript(index: Int) -> String { strings[index % strings.count] }
}

/// Section 1's workloads over `n` elements.
struct OperatorWorkloads<C: Clock>: Sendable where C.Duration == Duration {
  let pool: ElementPool
  let clock: C

  /// (a) producer → AsyncStream → consumer.
  func asyncStream(_ n: Int) async throws {
    let stream = produce(n) { pool[$0] }
    var received = 0
    for await _ in stream { received += 1 }
    try check("AsyncStream elements", received, equals: n)
  }

  /// (b) the baseline plus removeDuplicates, where every second element repeats the previous.
  func removeDuplicates(_ n: Int) async throws {
    let stream = produce(n) { pool[$0 / 2] }
    var received = 0
    for await _ in stream.removeDuplicates() { received += 1 }
    try check("removeDuplicates elements", received, equals: (n + 1) / 2)
  }

  /// (c) debounce(50 ms): bursts of 1,000 back-to-back elements, each followed by 60 ms quiet.
  func debounce(_ n: Int) async throws {
    let burst = 1_000
    let bursts = max(1, n / burst)
    let (stream, input) = AsyncStream.makeStream(of: String.self)
    let producer = Task(inheritingExecutor: { [pool, clock] in
      for index in 0..<bursts {
        for element in 0..<burst { input.yield(pool[index &* burst &+ element]) }
        try? await clock.sleep(for: .milliseconds(60))
      }
      input.finish()
    })
    var received = 0
    for try await _ in stream.debounce(for: .milliseconds(50), clock: clock) { received += 1 }
    await producer.value
    // Live, a timer woken late on a busy machine can let the next burst in first: then two
    // bursts settle as one. Only virtual time guarantees one output per burst.
    let exact = clock is ManualClock
    guard exact ? received == bursts : (1...bursts).contains(received) else {
      throw BenchmarkFailure(description: "debounce outputs: \(received) for \(bursts) bursts")
    }
  }

  /// (d) switchMap where every element supersedes the previous child: each child waits on the
  /// clock for an hour and is cancelled by the next element; the last child answers at once.
  func switchMap(_ n: Int) async throws {
    let last = "the last element"
    let stream = produce(n) { $0 == n - 1 ? last : pool[$0] }
    let events = stream.switchMap { [clock] (input: String, emit: SwitchMapEmitter<Int>) in
      if input == last {
        emit(1)
      } else {
        try? await clock.sleep(for: .seconds(3_600))
      }
    }
    var started = 0
    var outputs = 0
    for try await event in events {
      switch event {
      case .started: started += 1
      case .output: outputs += 1
      case .cancelled: break
      }
    }
    try check("switchMap starts", started, equals: n)
    try check("switchMap outputs", outputs, equals: 1)
  }

  /// (e) merge of three sequences of n / 3 elements each.
  func merge3(_ n: Int) async throws {
    let third = n / 3
    let streams = (0..<3).map { base in produce(third) { pool[base &* third &+ $0] } }
    var received = 0
    for try await _ in merge(streams) { received += 1 }
    try check("merge elements", received, equals: third * 3)
  }

  /// A stream fed by a producer task with `count` elements, then finished.
  private func produce(_ count: Int, _ element: @escaping @Sendable (Int) -> String) -> AsyncStream<String> {
    let (stream, input) = AsyncStream.makeStream(of: String.self)
    Task(inheritingExecutor: {
      for index in 0..<count { input.yield(element(index)) }
      input.finish()
    })
    return stream
  }
}
