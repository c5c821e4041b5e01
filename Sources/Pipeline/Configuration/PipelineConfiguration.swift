// Everything a run of the pipeline can be told, with the defaults a user expects.
import Streams

/// How a search pipeline behaves: timing, categories, limits, cache and rate limiting.
public struct PipelineConfiguration: Sendable {
  /// The categories each search asks for, in the order results present them.
  public var categories: [Category] = Category.defaults
  /// How long the field must be quiet before a term is searched. A cleared field never waits.
  public var debounce: Duration = .milliseconds(300)
  /// Terms shorter than this (in characters, after trimming) behave as a cleared field.
  public var minimumTermLength = 1
  /// Items per category, 1 to 200.
  public var limit = 25
  /// The two-letter store country.
  public var country = "US"
  /// The iTunes `lang` parameter; nil leaves it out.
  public var language: String?
  /// The iTunes `explicit` parameter; nil leaves it out.
  public var explicit: Bool?
  /// A search still waiting for categories after this long reports them as timed out; nil
  /// waits for ever.
  public var searchTimeout: Duration? = .seconds(10)
  /// Requests allowed to reach the source per window; nil for no limit.
  public var rateLimit: RateLimit?
  /// How a request that failed transiently (a 5xx, a dropped connection) is tried again; nil
  /// tries once. Each attempt passes the rate limiter; rate limiting itself is never retried.
  public var retry: RetryPolicy?
  /// Answers kept in memory (least recently used evicted first); 0 disables the cache.
  public var cacheCapacity = 1_000
  /// How long a cached answer stays valid, in memory and on disk; nil keeps it until evicted.
  public var cacheTimeToLive: Duration?
  /// The shared tier (L2) behind the memory cache, shared across runs and processes, which also
  /// holds the rate budget they share: an `SQLiteStore` (SQLiteStorage) for the processes of one
  /// machine; nil keeps answers in memory only. Meant for network sources: an offline catalog
  /// gains nothing from it.
  public var store: (any SharedStore)?
  /// Also emit each category's answer as it arrives (`partial` events) before `results`.
  public var progressive = false
  /// Ask the source once per search for all categories (iTunes `media=all`) instead of once
  /// per category, when the source supports it.
  public var singleRequest = false
  /// A session with no input for this long is forgotten (its state freed).
  public var sessionIdleTimeout: Duration = .seconds(600)
  /// Receives diagnostics such as `[network] fetching "taylor" (music)`; nil discards them.
  public var log: (@Sendable (PipelineLogMessage) -> Void)?
  /// Told what happens (a request sent, a search's start and end, a session forgotten), for code
  /// that reacts: metrics, a request counter. Empty by default; see ``PipelineObserver``.
  public var observers: [any PipelineObserver] = []

  /// The defaults: music, movies and podcasts, 300 ms debounce, 25 items, US, 10 s timeout.
  public init() {}
}

extension PipelineConfiguration: Equatable {
  /// True when every setting is the same: ``store`` must be the same object; ``log`` and
  /// ``observers`` are not compared, so configurations that differ only in who listens are equal.
  /// Lets a program (the command line's parser, its tests) check a configuration it built.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    // A setting added to the type must be added here; PipelineConfigurationTests counts them.
    lhs.categories == rhs.categories && lhs.debounce == rhs.debounce
      && lhs.minimumTermLength == rhs.minimumTermLength && lhs.limit == rhs.limit
      && lhs.country == rhs.country && lhs.language == rhs.language && lhs.explicit == rhs.explicit
      && lhs.searchTimeout == rhs.searchTimeout && lhs.rateLimit == rhs.rateLimit && lhs.retry == rhs.retry
      && lhs.cacheCapacity == rhs.cacheCapacity && lhs.cacheTimeToLive == rhs.cacheTimeToLive
      && lhs.store === rhs.store && lhs.progressive == rhs.progressive
      && lhs.singleRequest == rhs.singleRequest && lhs.sessionIdleTimeout == rhs.sessionIdleTimeout
  }
}

/// At most `permits` requests per `window`.
public struct RateLimit: Sendable, Hashable {
  /// Requests allowed per window.
  public var permits: Int
  /// The window's length.
  public var window: Duration

  /// Creates a limit of `permits` requests per `window`.
  public init(permits: Int, per window: Duration) {
    self.permits = permits
    self.window = window
  }
}
