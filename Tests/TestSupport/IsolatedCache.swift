// Children of the tests never share the user's disk cache, nor each other's: each gets its own
// XDG_CACHE_HOME, so an answer one test left on disk cannot answer another test's search.
import Foundation
import Synchronization

/// Environments whose `XDG_CACHE_HOME` is a directory of their own.
public enum IsolatedCache {
  private static let counter = Mutex(0)

  /// `environment` (this process's when nil) with `XDG_CACHE_HOME` set to a new, not yet created
  /// directory under the temporary directory, unless it already names one.
  public static func environment(_ environment: [String: String]? = nil) -> [String: String] {
    var result = environment ?? ProcessInfo.processInfo.environment
    guard environment?["XDG_CACHE_HOME"] == nil else { return result }
    let number = counter.withLock { counter -> Int in
      counter += 1
      return counter
    }
    result["XDG_CACHE_HOME"] = NSTemporaryDirectory() + "stream-search-tests-\(getpid())/\(number)"
    return result
  }
}
