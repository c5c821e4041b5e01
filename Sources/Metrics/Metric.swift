// The three kinds of metric an operator scrapes: counters that only go up, gauges that go both
// ways, and a histogram of durations. Each is a few atomics: recording never takes a lock, so the
// threads carrying keystrokes never wait for a scrape.
import Synchronization

/// A count that only goes up: requests, searches, errors.
public final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  init() {}

  /// Adds `amount` (a negative amount is ignored: a counter never goes down).
  public func increment(by amount: Int = 1) {
    guard amount > 0 else { return }
    value.wrappingAdd(amount, ordering: .relaxed)
  }

  /// The count so far.
  public var count: Int { value.load(ordering: .relaxed) }
}

/// A value that goes up and down: open connections, shards held.
public final class Gauge: Sendable {
  private let storage = Atomic<Int>(0)

  init() {}

  /// Sets the value.
  public func set(_ value: Int) { storage.store(value, ordering: .relaxed) }

  /// Adds `amount`, which may be negative.
  public func add(_ amount: Int) { storage.wrappingAdd(amount, ordering: .relaxed) }

  /// The value now.
  public var value: Int { storage.load(ordering: .relaxed) }
}

/// How durations are distributed: a count per bucket, their sum and their number.
///
/// Each observation lands in exactly one slot (the first bucket whose bound it does not exceed, or
/// the overflow past the last bound); the exposition adds the slots up, so its cumulative buckets,
/// its `+Inf` bucket and its count always agree, even read while observations arrive.
public final class Histogram: Sendable {
  /// The buckets' upper bounds in seconds, ascending.
  public let bounds: [Double]
  private let bucketBoundsInNanoseconds: [Int64]
  /// One slot per bound, and the overflow last.
  private let slots: [Counter]
  private let sumNanoseconds = Atomic<Int>(0)

  init(bounds: [Double]) {
    self.bounds = bounds
    bucketBoundsInNanoseconds = bounds.map { Int64(($0 * 1e9).rounded()) }
    slots = (0...bounds.count).map { _ in Counter() }
  }

  /// Records one duration (a negative one as zero).
  public func observe(_ duration: Duration) {
    let nanoseconds = max(0, duration.nanosecondsClamped)
    let slot = bucketBoundsInNanoseconds.firstIndex { nanoseconds <= $0 } ?? bounds.count
    slots[slot].increment()
    sumNanoseconds.wrappingAdd(Int(nanoseconds), ordering: .relaxed)
  }

  /// What the histogram holds now: cumulative counts per bound, the total count, and the sum in
  /// seconds.
  public var snapshot: (cumulative: [Int], count: Int, sumSeconds: Double) {
    var running = 0
    var cumulative: [Int] = []
    cumulative.reserveCapacity(bounds.count)
    for index in bounds.indices {
      running += slots[index].count
      cumulative.append(running)
    }
    running += slots[bounds.count].count
    return (cumulative, running, Double(sumNanoseconds.load(ordering: .relaxed)) / 1e9)
  }
}

extension Duration {
  /// The duration in whole nanoseconds, clamped to Int64's range.
  var nanosecondsClamped: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    let (total, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !overflowAgain else { return seconds < 0 ? .min : .max }
    return total
  }
}
