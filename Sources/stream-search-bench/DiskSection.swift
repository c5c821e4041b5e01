// The "disk" section: the disk tier: what a search pays to hand an answer to the store's writer
// (the only part of a store write on the hot path), and the latency of a disk hit.
import Foundation
import Pipeline
import SQLiteStorage

/// Measures the "disk" section on a store in a fresh temporary directory.
struct DiskSection {
  let options: BenchOptions
  let stopwatch: Stopwatch

  func measure(into table: inout ResultTable) async throws {
    let directory = NSTemporaryDirectory() + "stream-search-bench-disk-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = SQLiteStore.open(directory: directory, capacity: 10_000) { line in
      FileHandle.standardError.write(Data("bench: \(line)\n".utf8))
    }
    let items = Self.answer()
    let keys = (0..<1_000).map {
      StoreKey(source: "itunes", term: "term \($0)", scope: "music", limit: 25, country: "US")
    }
    // Hand-offs in batches the writer's bound holds, so none is dropped (a drop costs less); the
    // commit after each batch is not timed: it happens on the writer's thread.
    var handOff: [Double] = []
    for _ in 0...options.runs {
      var elapsed: Duration = .zero
      for batch in stride(from: 0, to: keys.count, by: 500) {
        let start = ContinuousClock.now
        for key in keys[batch..<min(batch + 500, keys.count)] {
          store.save(items, fetchedAt: store.wallClock.millisecondsSinceEpoch, for: key)
        }
        elapsed += start.duration(to: .now)
        await store.flush()
      }
      handOff.append(nanoseconds(elapsed) / Double(keys.count))
    }
    table.append(
      ResultRow(
        section: "6 disk", name: "store write on the hot path (hand-off)", unit: "ns/write",
        sample: Sample(Array(handOff.dropFirst())), note: "25-item answer; encoding and commit on the writer thread"))
    for decoding in [false, true] {
      let (p50, p99) = try await percentiles(store: store, keys: keys, decoding: decoding)
      let what = decoding ? "disk hit (read + decode)" : "disk read alone (no decode)"
      for (name, values) in [("\(what), p50", p50), ("\(what), p99", p99)] {
        table.append(
          ResultRow(
            section: "6 disk", name: name, unit: "µs/hit", sample: Sample(values),
            note: "1,000 stored 25-item answers, WAL mode"))
      }
    }
  }

  /// Per run, the median and 99th percentile of one read of each of `keys`.
  private func percentiles(
    store: SQLiteStore, keys: [StoreKey], decoding: Bool
  ) async throws -> (p50: [Double], p99: [Double]) {
    var p50: [Double] = []
    var p99: [Double] = []
    for run in 0...options.runs {
      var latencies: [Double] = []
      for key in keys {
        let start = ContinuousClock.now
        guard let stored = await store.answer(for: key), !decoding || stored.items != nil else {
          throw BenchmarkFailure(description: "disk miss for \(key.term)")
        }
        latencies.append(nanoseconds(start.duration(to: .now)) / 1_000)
      }
      guard run > 0 else { continue }  // the warm-up
      latencies.sort()
      p50.append(latencies[latencies.count / 2])
      p99.append(latencies[latencies.count * 99 / 100])
    }
    return (p50, p99)
  }

  /// A 25-item answer shaped like an iTunes one.
  static func answer() -> [Category: [SearchItem]] {
    let item = { (index: Int) in
      var item = SearchItem(id: 1_000 + index)
      item.kind = "song"
      item.trackName = "Track \(index)"
      item.artistName = "Some Artist"
      item.collectionName = "Some Album"
      item.trackViewUrl = "https://music.apple.com/us/album/\(1_000 + index)"
      item.artworkUrl = "https://is1-ssl.mzstatic.com/image/thumb/\(index)/600x600bb.jpg"
      item.releaseDate = "2014-08-18"
      item.primaryGenreName = "Pop"
      return item
    }
    return [.music: (0..<25).map(item)]
  }
}
