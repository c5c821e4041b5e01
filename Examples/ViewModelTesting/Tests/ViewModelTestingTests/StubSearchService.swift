// A stub service written the obvious way: it answers after a latency slept on the test's clock
// and counts what it was asked.
import Streams
import StreamsTesting
import ViewModelTesting

/// Answers every term with one title, `latency` after it was asked, on `clock`.
struct StubSearchService: SearchService {
  let clock: ManualClock
  var latency: Duration = .milliseconds(200)
  let asked = Recorder<String>()

  func titles(matching term: String) async throws -> [String] {
    asked.append("\(term)@\(clock.now.milliseconds)")
    try await clock.sleep(for: latency)
    return [term.uppercased()]
  }
}
