// The shared store as the repository sees it: the rules every store is used by, stated once. An
// answer is fresh for the time to live on the wall clock, an expired one is kept for the offline
// fallback, every key names the source, and the answers the store gave are counted.
import Foundation
import Streams
import Synchronization

/// Whether a run's shared store was in use, as the summary reports it (`"disk"`).
public enum DiskTierStatus: String, Sendable, Hashable {
  /// Answers were read from and written to the store.
  case on
  /// The store could not be used (see the warning on standard error): memory only.
  case off
}

/// The repository's view of a ``SharedStore``.
final class SharedTier: Sendable {
  let store: any SharedStore
  /// The budget this source's requests share with every process using the store; nil when
  /// `--rate-limit none`.
  let budget: SharedRateBudget?
  private let timeToLive: Duration?
  private let hitCount = Mutex(0)

  init(store: any SharedStore, source: String, configuration: PipelineConfiguration) {
    self.store = store
    timeToLive = configuration.cacheTimeToLive
    budget = configuration.rateLimit.map { SharedRateBudget(store: store, name: source, limit: $0) }
  }

  /// Answers the store gave so far.
  var hits: Int { hitCount.withLock { $0 } }

  /// The stored items for `key` if they are still fresh (fetched less than the time to live ago,
  /// on the wall clock), and how long ago they were fetched (never negative: a stamp from the
  /// future, after the calendar moved back, counts as now); marks them used. Nil on a miss, an
  /// expired answer or an unreadable one.
  func freshAnswer(for key: StoreKey) async -> (items: [Category: [SearchItem]], age: Duration)? {
    guard let stored = await read(key) else { return nil }
    let now = store.wallClock.millisecondsSinceEpoch
    guard isFresh(stored, at: now), let items = stored.items else { return nil }
    store.markUsed(key, at: now)
    hitCount.withLock { $0 += 1 }
    return (items, .milliseconds(max(0, now - stored.fetchedAt)))
  }

  /// The stored items for `key`, however old: the fallback when the source fails.
  func anyAnswer(for key: StoreKey) async -> [Category: [SearchItem]]? {
    await read(key)?.items
  }

  /// Hands `items`, fetched now, to the store; returns at once.
  func save(_ items: [Category: [SearchItem]], for key: StoreKey) {
    store.save(items, fetchedAt: store.wallClock.millisecondsSinceEpoch, for: key)
  }

  /// Whether the store was in use, for the summary: once every write handed over is where other
  /// processes find it. A store still starting as the run ends (another process held its lock
  /// the whole run) is turned off, so the user is told once why this run's answers were not kept.
  func summaryStatus() async -> DiskTierStatus {
    // The store's writes are another thread's (or server's): in a replay, virtual time must wait.
    await withExternalWork { await store.flush() }
    if store.status == .starting {
      store.turnOff(because: "another process held its lock for the whole run; this run's answers were not stored")
    }
    return store.status == .on ? .on : .off
  }

  /// A store's read is real I/O (a file, a socket): in a replay, virtual time waits for it.
  private func read(_ key: StoreKey) async -> StoredAnswer? {
    await withExternalWork { await store.answer(for: key) }
  }

  /// Fresh strictly before `fetchedAt + timeToLive`, as in memory.
  private func isFresh(_ answer: StoredAnswer, at now: Int64) -> Bool {
    guard let timeToLive else { return true }
    return now < answer.fetchedAt + timeToLive.wholeMilliseconds
  }
}

extension SearchKey {
  /// The same key in a shared store.
  var storeKey: StoreKey {
    let scopeText: String
    switch scope {
    case .category(let category): scopeText = category.rawValue
    case .all(let categories): scopeText = "all:" + categories.map(\.rawValue).joined(separator: ",")
    }
    return StoreKey(source: source, term: Self.storedTerm(termKey), scope: scopeText, limit: limit, country: country)
  }

  /// `termKey` in Unicode's composed form (NFC). Memory compares keys as Swift does, by canonical
  /// equivalence ("e" + U+0301 equals "é"); a store compares bytes, so it is given one spelling
  /// of each, and both tiers agree on which terms are one.
  static func storedTerm(_ termKey: String) -> String {
    termKey.utf8.allSatisfy { $0 < 0x80 } ? termKey : termKey.precomposedStringWithCanonicalMapping
  }
}
