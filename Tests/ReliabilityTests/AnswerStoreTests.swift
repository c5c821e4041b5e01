// The store in process, on a wall clock the test sets: the documented set-up, the time to live at
// its exact boundary, and a store that cannot be opened reporting once and staying off.
import Foundation
import Synchronization
import Testing

@testable import Pipeline

/// A wall clock that stands still until the test moves it; it never waits.
final class SetWallClock: WallClock {
  private let now = Mutex<Int64>(0)

  init(_ milliseconds: Int64) { now.withLock { $0 = milliseconds } }

  var millisecondsSinceEpoch: Int64 { now.withLock { $0 } }

  func set(_ milliseconds: Int64) { now.withLock { $0 = milliseconds } }

  func sleep(for duration: Duration) async throws {
    now.withLock { $0 += duration.wholeMilliseconds }
  }
}

@Suite struct AnswerStoreTests {
  @Test func theDocumentedSetUpOpensAStore() async throws {
    let directory = try freshDirectory()
    let reports = Mutex<[String]>([])
    // As in AnswerStore's documentation.
    let store = AnswerStore.open(directory: directory, wallClock: SystemWallClock()) { line in
      reports.withLock { $0.append(line) }
    }
    var configuration = PipelineConfiguration()
    configuration.store = store
    #expect(store.status == .on)
    #expect(reports.withLock { $0 }.isEmpty)
    #expect(FileManager.default.fileExists(atPath: directory + "/cache.sqlite"))
  }

  @Test func aStoredAnswerIsFreshUntilExactlyItsTimeToLive() async throws {
    let clock = SetWallClock(1_000_000)
    let store = AnswerStore.open(directory: try freshDirectory(), wallClock: clock) { line in
      Issue.record("unexpected report: \(line)")
    }
    var configuration = PipelineConfiguration()
    configuration.cacheTimeToLive = .seconds(60)
    let tier = DiskTier(store: store, source: "itunes", configuration: configuration)
    let key = StoreKey(source: "itunes", term: "taylor", scope: "music", limit: 25, country: "US")
    let items: [Category: [SearchItem]] = [.music: [SearchItem(id: 1, trackName: "Shake It Off")]]
    tier.save(items, for: key)
    await store.flush()
    clock.set(1_059_999)
    #expect(tier.freshAnswer(for: key)?.items == items)
    #expect(tier.freshAnswer(for: key)?.age == .milliseconds(59_999), "the age is told on the wall clock")
    clock.set(1_060_000)
    #expect(tier.freshAnswer(for: key) == nil)
    #expect(tier.anyAnswer(for: key) == items, "an expired answer stays for the fallback")
    #expect(tier.hits == 2)
  }

  @Test func aStoreThatCannotOpenReportsOnceAndStaysOff() async throws {
    let parent = try freshDirectory()
    try Data().write(to: URL(fileURLWithPath: parent + "/file"))
    let reports = Mutex<[String]>([])
    let store = AnswerStore.open(directory: parent + "/file/cache") { line in reports.withLock { $0.append(line) } }
    guard case .off(let reason) = store.status else {
      Issue.record("expected the store to be off")
      return
    }
    #expect(reason.contains("is not a directory"))
    let key = StoreKey(source: "itunes", term: "x", scope: "music", limit: 25, country: "US")
    store.save([.music: []], for: key)
    await store.flush()
    #expect(store.answer(for: key) == nil)
    #expect(reports.withLock { $0 }.count == 1)
  }

  @Test func storedItemsKeepEveryFieldAndCutShortBytesDoNotDecode() {
    let full = SearchItem(
      id: 42, wrapperType: "track", kind: "song", trackId: 42, collectionId: 7, artistId: -3,
      trackName: "Ünïcødé \"q\"", collectionName: "Album", artistName: "Artist", trackViewUrl: "https://a",
      collectionViewUrl: "https://b",
      previewUrl: "https://c", artworkUrl100: "https://d", artworkUrl: "https://e", releaseDate: "2014-08-18T07:00:00Z",
      primaryGenreName: "Pop", trackTimeMillis: 219_209, price: 1.29, currency: "USD", country: "USA",
      feedUrl: "https://f", popularity: 9)
    let items: [Category: [SearchItem]] = [.music: [full, SearchItem(id: 1)], .podcasts: []]
    let bytes = StoredItemsCoding.encode(items)
    #expect(StoredItemsCoding.decode(bytes) == items)
    #expect(StoredAnswer(encoded: bytes, fetchedAt: 0).items == items)
    for length in [0, 1, 5, bytes.count / 2, bytes.count - 1] {
      #expect(StoredItemsCoding.decode(Array(bytes.prefix(length))) == nil, "\(length) of \(bytes.count) bytes")
    }
    #expect(StoredItemsCoding.decode(bytes + [0]) == nil)
  }
}
