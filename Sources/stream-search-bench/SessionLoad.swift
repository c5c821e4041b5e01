// The "serve" section's load: many WebSocket sessions on loopback, each typing words at 10 keys/s
// as a person types into a search field, the field's whole text sent after each key. A handful
// of threads share the sessions, each with its own epoll set and a heap of the sessions' next key
// times. What is measured per word: from the moment its last key was sent to the moment its
// `results` frame arrived, minus the server's debounce (the time the server waits on purpose).
import CEpoll
import Foundation

/// Drives the sessions of one load run and collects the latencies.
struct SessionLoad {
  /// The server's address (loopback) and port.
  let port: UInt16
  /// Sessions, open at once for the whole run.
  let sessions: Int
  /// Words each session types one after another.
  let wordsPerSession: Int
  /// Between two keys of a word, and between a word's results and the next word's first key.
  let keyInterval: Duration = .milliseconds(100)
  /// The server's debounce, subtracted from each latency.
  let debounce: Duration
  /// Threads sharing the sessions.
  let threads: Int
  /// A run not finished by then stops; unanswered words count as failures.
  let limit: Duration

  /// What a run measured.
  struct Outcome {
    /// Milliseconds from each word's last key to its results, minus the debounce.
    var latencies: [Double] = []
    /// Sessions whose handshake failed (not 101), and words never answered.
    var refused = 0
    var unanswered = 0
    /// Keys sent (each a text message).
    var keys = 0
    /// Seconds to open every session.
    var openSeconds = 0.0
  }

  static let words = [
    "queen", "abba", "adele", "taylor", "beatles", "drake", "madonna", "prince", "nirvana", "coldplay",
    "eminem", "rihanna", "bohemian", "yesterday", "thriller", "imagine", "hello", "halo", "toxic", "rocket",
    "jolene", "creep", "wonderwall", "dancing", "purple", "yellow", "smooth", "umbrella", "believe", "stay",
    "titanic", "inception", "matrix", "alien", "jaws", "rocky", "frozen", "avatar", "gladiator", "psycho",
    "serial", "radiolab", "planet", "history", "crime", "science", "comedy", "football", "cooking", "travel",
  ]

  /// Opens the sessions, runs the words, closes the sessions.
  func run() throws -> Outcome {
    let started = monotonicNanoseconds()
    let shares = (0..<threads).map { index in sessions / threads + (index < sessions % threads ? 1 : 0) }
    var openers: [LoadThread] = []
    for (index, share) in shares.enumerated() {
      openers.append(try LoadThread(load: self, first: shares[..<index].reduce(0, +), count: share))
    }
    let openSeconds = Double(monotonicNanoseconds() - started) / 1e9
    let results = runAll(openers)
    var outcome = Outcome(openSeconds: openSeconds)
    for result in results {
      outcome.latencies += result.latencies
      outcome.refused += result.refused
      outcome.unanswered += result.unanswered
      outcome.keys += result.keys
    }
    return outcome
  }

  /// Each thread's loop, all at once; returns once every one has ended.
  private func runAll(_ loads: [LoadThread]) -> [LoadThread.Result] {
    let group = DispatchGroup()
    let collected = LockedResults(count: loads.count)
    for (index, load) in loads.enumerated() {
      group.enter()
      let thread = Thread {
        collected.set(index, load.loop())
        group.leave()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    group.wait()
    return collected.all
  }
}

/// Results written by several threads, read once all have ended.
private final class LockedResults: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [LoadThread.Result?]

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ result: LoadThread.Result) {
    lock.lock()
    results[index] = result
    lock.unlock()
  }

  var all: [LoadThread.Result] {
    lock.lock()
    defer { lock.unlock() }
    return results.compactMap { $0 }
  }
}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Session slots by the time their next key is due, earliest first (a binary heap).
struct DueHeap {
  private var entries: [(time: UInt64, slot: Int)] = []

  func peek() -> (time: UInt64, slot: Int)? { entries.first }

  mutating func push(_ time: UInt64, _ slot: Int) {
    entries.append((time, slot))
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard entries[child].time < entries[parent].time else { break }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() {
    guard !entries.isEmpty else { return }
    entries.swapAt(0, entries.count - 1)
    entries.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < entries.count && entries[left].time < entries[smallest].time { smallest = left }
      if right < entries.count && entries[right].time < entries[smallest].time { smallest = right }
      guard smallest != parent else { return }
      entries.swapAt(parent, smallest)
      parent = smallest
    }
  }

  /// Moves every time by the same amount, so that the earliest is `start` (order unchanged).
  mutating func shift(to start: UInt64) {
    guard let earliest = entries.map(\.time).min() else { return }
    for index in entries.indices { entries[index].time = entries[index].time - earliest + start }
  }
}
