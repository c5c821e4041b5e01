// The disk tier as the repository sees it: a store, the time to live on the wall clock, the
// source's name in every key, and the count of answers it gave.
import Foundation
import Streams
import Synchronization

/// Whether a run's disk tier was in use, as the summary reports it.
public enum DiskTierStatus: String, Sendable, Hashable {
  /// Answers were read from and written to disk.
  case on
  /// The file could not be used (see the warning on standard error): memory only.
  case off
}

/// The repository's view of an ``AnswerStore``.
final class DiskTier: Sendable {
  let store: AnswerStore
  /// The budget this source's requests share with every process using the store; nil when
  /// `--rate-limit none`.
  let budget: SharedRateBudget?
  private let timeToLive: Duration?
  private let hitCount = Mutex(0)

  init(store: AnswerStore, source: String, configuration: PipelineConfiguration) {
    self.store = store
    timeToLive = configuration.cacheTimeToLive
    budget = configuration.rateLimit.map { SharedRateBudget(store: store, name: source, limit: $0) }
  }

  /// Answers the disk gave so far.
  var hits: Int { hitCount.withLock { $0 } }

  /// The stored items for `key` if they are still fresh (fetched less than the time to live ago,
  /// on the wall clock), and how long ago they were fetched (never negative: a stamp from the
  /// future, after the calendar moved back, counts as now); marks them used. Nil on a miss, an
  /// expired answer or an unreadable one.
  func freshAnswer(for key: StoreKey) -> (items: [Category: [SearchItem]], age: Duration)? {
    guard let stored = store.answer(for: key), isFresh(stored), let items = stored.items else { return nil }
    store.markUsed(key)
    hitCount.withLock { $0 += 1 }
    let age = max(0, store.wallClock.millisecondsSinceEpoch - stored.fetchedAt)
    return (items, .milliseconds(age))
  }

  /// The stored items for `key`, however old: the fallback when the source fails.
  func anyAnswer(for key: StoreKey) -> [Category: [SearchItem]]? {
    store.answer(for: key)?.items
  }

  /// Hands `items` to the writer; returns at once.
  func save(_ items: [Category: [SearchItem]], for key: StoreKey) {
    store.save(items, for: key)
  }

  /// Fresh strictly before `fetchedAt + timeToLive`, as in memory.
  private func isFresh(_ answer: StoredAnswer) -> Bool {
    guard let timeToLive else { return true }
    return store.wallClock.millisecondsSinceEpoch < answer.fetchedAt + timeToLive.wholeMilliseconds
  }
}

extension SearchRepository.Key {
  /// The same key on disk.
  var storeKey: StoreKey {
    let scopeText: String
    switch scope {
    case .category(let category): scopeText = category.rawValue
    case .all(let categories): scopeText = "all:" + categories.map(\.rawValue).joined(separator: ",")
    }
    return StoreKey(source: source, term: Self.storedTerm(termKey), scope: scopeText, limit: limit, country: country)
  }

  /// `termKey` in Unicode's composed form (NFC). Memory compares keys as Swift does, by canonical
  /// equivalence ("e" + U+0301 equals "é"); the disk compares bytes, so it is given one spelling
  /// of each, and both tiers agree on which terms are one.
  static func storedTerm(_ termKey: String) -> String {
    termKey.utf8.allSatisfy { $0 < 0x80 } ? termKey : termKey.precomposedStringWithCanonicalMapping
  }
}
