// The request budget `--rate-limit` sets: `20/min`, `5/s`, `100/h`, `20/60s`.

import Pipeline

/// Reading and writing the pipeline's `RateLimit` as `--rate-limit` takes it.
extension RateLimit {
  /// The iTunes Search API's documented budget, used for `--source itunes` unless overridden.
  static let itunes = RateLimit(permits: 20, per: .seconds(60))

  /// Why a rate's text could not be read.
  enum SyntaxError: Error, Equatable, Sendable {
    /// Not `PERMITS/WINDOW` with a whole number of at least 1 and a window greater than zero.
    case malformed
  }

  /// Parses `PERMITS/WINDOW`, where the window is a unit word (`s`, `sec`, `second`, `m`, `min`,
  /// `minute`, `h`, `hr`, `hour`) meaning one of it, or a duration such as `60s` or `1.5m`.
  ///
  /// - Throws: ``SyntaxError/malformed`` for anything else, a zero window or fewer than 1 permit.
  init(commandLineText text: String) throws(SyntaxError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].allSatisfy(\.isASCIIDigit), let permits = Int(parts[0]), permits >= 1
    else { throw .malformed }
    let windowText = String(parts[1])
    let window: Duration
    if let named = Self.namedWindows[windowText] {
      window = named
    } else {
      do {
        window = try Duration(commandLineText: windowText)
      } catch {
        throw .malformed
      }
    }
    guard window > .zero else { throw .malformed }
    self.init(permits: permits, per: window)
  }

  /// The rate as `--rate-limit` takes it: `20/min`, `5/s`, `100/h`, or `20/90s` for other windows.
  var commandLineText: String {
    switch window {
    case .seconds(1): "\(permits)/s"
    case .seconds(60): "\(permits)/min"
    case .seconds(3_600): "\(permits)/h"
    default: "\(permits)/\(window.commandLineText)"
    }
  }

  /// Window words and the span each stands for.
  private static let namedWindows: [String: Duration] = [
    "s": .seconds(1), "sec": .seconds(1), "second": .seconds(1),
    "m": .seconds(60), "min": .seconds(60), "minute": .seconds(60),
    "h": .seconds(3_600), "hr": .seconds(3_600), "hour": .seconds(3_600),
  ]
}
