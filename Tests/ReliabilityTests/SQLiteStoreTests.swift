// The store in process, on a wall clock the test sets: the documented set-up, the time to live at
// its exact boundary, a store that cannot be opened reporting once and staying off, and a read
// that never waits behind the budget.
import Foundation
import Synchronization
import Testing

@testable import Pipeline
@testable import SQLiteStorage

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

@Suite(.timeLimit(.minutes(10))) struct SQLiteStoreTests {
  @Test func theDocumentedSetUpOpensAStore() async throws {
    let directory = try freshDirectory()
    let reports = Mutex<[String]>([])
    // As in SQLiteStore's documentation.
    let store = SQLiteStore.open(directory: directory, wallClock: SystemWallClock()) { line in
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
    let store = SQLiteStore.open(directory: try freshDirectory(), wallClock: clock) { line in
      Issue.record("unexpected report: \(line)")
    }
    var configuration = PipelineConfiguration()
    configuration.cacheTimeToLive = .seconds(60)
    let tier = SharedTier(store: store, source: "itunes", configuration: configuration)
    let key = StoreKey(source: "itunes", term: "taylor", scope: "music", limit: 25, country: "US")
    let items: [Category: [SearchItem]] = [.music: [SearchItem(id: 1, trackName: "Shake It Off")]]
    tier.save(items, for: key)
    await store.flush()
    clock.set(1_059_999)
    #expect(await tier.freshAnswer(for: key)?.items == items)
    #expect(await tier.freshAnswer(for: key)?.age == .milliseconds(59_999), "the age is told on the wall clock")
    clock.set(1_060_000)
    #expect(await tier.freshAnswer(for: key) == nil)
    #expect(await tier.anyAnswer(for: key) == items, "an expired answer stays for the fallback")
    #expect(tier.hits == 2)
  }

  @Test func aStoreThatCannotOpenReportsOnceAndStaysOff() async throws {
    let parent = try freshDirectory()
    try Data().write(to: URL(fileURLWithPath: parent + "/file"))
    let reports = Mutex<[String]>([])
    let store = SQLiteStore.open(directory: parent + "/file/cache") { line in reports.withLock { $0.append(line) } }
    guard case .off(let reason) = store.status else {
      Issue.record("expected the store to be off")
      return
    }
    #expect(reason.contains("is not a directory"))
    let key = StoreKey(source: "itunes", term: "x", scope: "music", limit: 25, country: "US")
    store.save([.music: []], fetchedAt: store.wallClock.millisecondsSinceEpoch, for: key)
    await store.flush()
    #expect(await store.answer(for: key) == nil)
    #expect(reports.withLock { $0 }.count == 1)
  }

  @Test func aReadNeverWaitsBehindABudgetWaitingForALock() async throws {
    let directory = try freshDirectory()
    let store = SQLiteStore.open(directory: directory) { line in Issue.record("unexpected report: \(line)") }
    let key = StoreKey(source: "itunes", term: "abba", scope: "music", limit: 25, country: "US")
    let items: [Category: [SearchItem]] = [.music: [SearchItem(id: 1, trackName: "Waterloo")]]
    store.save(items, fetchedAt: store.wallClock.millisecondsSinceEpoch, for: key)
    await store.flush()
    // Another process holds the write lock: the budget must wait for it.
    let blocker = try TestDatabase(cacheFile(directory))
    try blocker.rows("BEGIN EXCLUSIVE")
    let budget = SharedRateBudget(store: store, name: "itunes", limit: RateLimit(permits: 1, per: .seconds(1)))
    let (waits, told) = AsyncStream.makeStream(of: Duration.self)
    let acquired = Mutex(false)
    let acquiring = Task {
      let permit = try await budget.acquire { wait in told.yield(wait) }
      acquired.withLock { $0 = true }
      permit?.finish(mayStillArrive: false)
      return permit != nil
    }
    var iterator = waits.makeAsyncIterator()
    let wait = await iterator.next()
    #expect(wait.map { $0 > .zero && $0 <= .seconds(30) } == true, "the wait is announced: at most the patience left")
    #expect(await store.answer(for: key)?.items == items)
    #expect(!acquired.withLock { $0 }, "the read came back while the budget still waited for the lock")
    try blocker.rows("COMMIT")
    #expect(try await acquiring.value, "once the lock is let go the budget records the request")
    #expect(store.status == .on)
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
