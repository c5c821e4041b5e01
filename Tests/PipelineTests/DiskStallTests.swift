// A stalled disk never holds a search's answer back: another connection holds the store's write
// lock, as another process would, and the search's results are emitted while its write waits.
import Foundation
import Streams
import TestSupport
import Testing

@testable import Pipeline
@testable import SQLiteStorage

@Suite struct DiskStallTests {
  @Test func aSearchIsAnsweredWhileItsStoreWriteWaitsForAnotherConnectionsLock() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "disk-stall-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // The writer waits up to a minute for the lock: the write is still blocked when the test
    // looks, however loaded the machine; the summary's flush bounds the test's one real wait.
    let store = SQLiteStore.open(directory: directory, writerBusyTimeout: 60_000) { line in
      Issue.record("unexpected report: \(line)")
    }
    let blocker = try SQLiteConnection(path: store.path, busyTimeout: 0)
    try blocker.execute("BEGIN EXCLUSIVE")
    var configuration = PipelineConfiguration()
    configuration.store = store
    let run = RunningPipeline(configuration: configuration) { StubSource(latency: .milliseconds(5), clock: $0) }
    run.send(Keystroke(term: "tay", atMilliseconds: 0, session: Key(0, "tay").session))
    run.runner.advance(to: .milliseconds(305))
    // Debounced at 300 ms, fetched in 5 ms, emitted at once: the disk did not delay it.
    #expect(run.log.lines == ["search tay@300", "results tay load@305"])
    // The answers were handed to the writer, which cannot commit while the lock is held.
    #expect(try blocker.integer("SELECT count(*) FROM answers") == 0)
    try blocker.execute("COMMIT")
    let summary = try run.finish()
    #expect(summary.diskTier == .on)
    // The write waited and then went through: every category's answer is on disk now.
    for category in Category.defaults {
      let key = StoreKey(source: "stub", term: "tay", scope: category.rawValue, limit: 25, country: "US")
      #expect(await store.answer(for: key)?.items?[category]?.isEmpty == false, "\(category)")
    }
  }
}
