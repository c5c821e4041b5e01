// PipelineConfiguration's equality: every setting counts, the disk tier by identity, the log and
// the observers not at all; and a setting added without being compared fails here instead of going unnoticed.
import Foundation
import Pipeline
import SQLiteStorage
import Streams
import Testing

@Suite struct PipelineConfigurationTests {
  /// An off disk tier (its directory cannot exist), so nothing is written anywhere.
  private static func offStore() -> SQLiteStore {
    SQLiteStore.open(directory: "/dev/null/no-directory") { _ in }
  }

  /// One change to each setting but `log` and `observers`.
  static let changes: [@Sendable (inout PipelineConfiguration) -> Void] = [
    { $0.categories = [.music] },
    { $0.debounce = .zero },
    { $0.minimumTermLength = 3 },
    { $0.limit = 5 },
    { $0.country = "GB" },
    { $0.language = "en_us" },
    { $0.explicit = false },
    { $0.searchTimeout = nil },
    { $0.rateLimit = RateLimit(permits: 5, per: .seconds(1)) },
    { $0.retry = RetryPolicy(maxAttempts: 2, initialBackoff: .seconds(1)) },
    { $0.cacheCapacity = 0 },
    { $0.cacheTimeToLive = .seconds(60) },
    { $0.store = offStore() },
    { $0.progressive = true },
    { $0.singleRequest = true },
    { $0.sessionIdleTimeout = .seconds(1) },
  ]

  @Test func everySettingButTheLogIsCompared() {
    // `log` and `observers` are the settings `==` leaves out; every other stored property has a
    // change above.
    #expect(
      Mirror(reflecting: PipelineConfiguration()).children.count == Self.changes.count + 2,
      "a setting was added to PipelineConfiguration: compare it in == and add a change here")
    for (index, change) in Self.changes.enumerated() {
      var changed = PipelineConfiguration()
      change(&changed)
      #expect(changed != PipelineConfiguration(), "change \(index) went unnoticed")
    }
    #expect(PipelineConfiguration() == PipelineConfiguration())
  }

  @Test func theDiskTierComparesByIdentityAndTheLogNotAtAll() {
    let store = Self.offStore()
    var first = PipelineConfiguration()
    var second = PipelineConfiguration()
    first.store = store
    second.store = store
    second.log = { _ in }
    second.observers = [ClosureObserver { _ in }]
    #expect(first == second)
    second.store = Self.offStore()
    #expect(first != second)
  }
}
