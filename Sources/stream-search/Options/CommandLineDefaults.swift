// Where the tool's defaults differ from the library's `PipelineConfiguration()`: each difference
// is one named rule here. Every other default is the library's, stated once, in Pipeline.
import Pipeline
import Streams

extension PipelineConfiguration {
  /// The settings a run starts from before its options are applied: the library's defaults but
  /// for ``RetryPolicy/commandLine``. (`--rate-limit` has no fixed default: it depends on
  /// `--source`, and the parser applies ``RateLimit/itunes`` to the iTunes source alone.)
  static var commandLine: PipelineConfiguration {
    var configuration = PipelineConfiguration()
    configuration.retry = .commandLine
    return configuration
  }
}

extension RetryPolicy {
  /// The tool tries a transient failure (a 5xx, a lost connection) twice more, after 1 s and then
  /// 2 s, doubling up to 60 s for a larger `--retries`: a person at a terminal expects a flaky
  /// network to be tried again, where the library tries once unless its user asks for more.
  static let commandLine = RetryPolicy(maxAttempts: 3, initialBackoff: .seconds(1), maxBackoff: .seconds(60))
}
