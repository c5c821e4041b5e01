// The disk tier's writes, off the searches' path: a search hands its answer over (a lock and an
// append) and goes on; a thread of its own encodes, commits in short batches and evicts.
import Dispatch
import Foundation
import Pipeline
import Streams
import Synchronization

/// One write handed to the writer.
enum StoreWrite: Sendable {
  /// Store (or replace) the answer for a key, fetched at this instant.
  case save(StoreKey, [Category: [SearchItem]], fetchedAt: Int64)
  /// The answer for a key was used at this instant (the LRU order).
  case markUsed(StoreKey, at: Int64)
  /// A budget's request is over from this instant.
  case finishRequest(budget: String, id: String, endedAt: Int64)
}

/// A dedicated thread with its own connection that commits the writes handed to it.
///
/// - Hand-off: ``submit(_:)`` takes a lock, appends, signals, and returns; it never waits for the
///   disk. At most ``bound`` writes wait; beyond that a write is dropped (a cache write lost
///   costs one request later, never a wrong answer), so a stalled disk cannot grow memory.
/// - Batches: everything waiting is committed in one `BEGIN IMMEDIATE` transaction, then the
///   least recently used answers beyond the store's bounds are deleted in another.
/// - Flush: ``flush()`` returns once everything handed over before it is committed and the
///   write-ahead log is folded into the file (`wal_checkpoint(TRUNCATE)`), so `cache.sqlite` alone
///   holds every answer (another process reading at that moment may keep part of the log; it is
///   folded by the next flush).
/// - Stop: ``stop()`` ends the thread after its current batch; later writes are dropped and
///   ``flush()`` returns at once.
final class StoreWriter: Sendable {
  /// Most writes waiting to be committed.
  static let bound = 1_024

  private enum Job {
    case write(StoreWrite)
    case flush(CheckedContinuation<Void, Never>)
  }

  private struct State {
    var jobs = FIFOQueue<Job>()
    var waitingWrites = 0
    var stopped = false
  }

  private let path: String
  private let busyTimeout: Int32
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)

  init(path: String, busyTimeout: Int32) {
    self.path = path
    self.busyTimeout = busyTimeout
  }

  /// Starts the thread; it reports failures to `store`, which turns itself off. Writes handed over
  /// before are committed first.
  func start(store: SQLiteStore) {
    let thread = Thread { [self] in run(store: store) }
    thread.name = "stream-search.store-writer"
    thread.start()
  }

  /// Hands `write` over; returns at once.
  func submit(_ write: StoreWrite) {
    let queued = state.withLock { state -> Bool in
      guard !state.stopped else { return false }
      guard state.waitingWrites < Self.bound else { return false }
      state.waitingWrites += 1
      state.jobs.append(.write(write))
      return true
    }
    if queued { wake.signal() }
  }

  /// Returns once every write submitted before it is committed or dropped.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let queued = state.withLock { state -> Bool in
        guard !state.stopped else { return false }
        state.jobs.append(.flush(continuation))
        return true
      }
      if queued { wake.signal() } else { continuation.resume() }
    }
  }

  /// Ends the thread after its current batch and answers every waiting flush.
  func stop() {
    let flushes = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.stopped = true
      var flushes: [CheckedContinuation<Void, Never>] = []
      while let job = state.jobs.popFirst() {
        if case .flush(let continuation) = job { flushes.append(continuation) }
      }
      state.waitingWrites = 0
      return flushes
    }
    wake.signal()
    for flush in flushes { flush.resume() }
  }

  private func run(store: SQLiteStore) {
    let connection: SQLiteConnection
    do {
      connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
    } catch {
      store.fail(error)
      return
    }
    while true {
      wake.wait()
      let (jobs, stopped) = state.withLock { state -> ([Job], Bool) in
        var jobs: [Job] = []
        while let job = state.jobs.popFirst() { jobs.append(job) }
        state.waitingWrites = 0
        return (jobs, state.stopped)
      }
      if stopped { return }
      let writes = jobs.compactMap { job -> StoreWrite? in
        if case .write(let write) = job { write } else { nil }
      }
      if !writes.isEmpty {
        do throws(SQLiteError) {
          try connection.inImmediateTransaction { () throws(SQLiteError) in
            try commit(writes, on: connection)
            try evict(on: connection, capacity: store.capacity, maxBytes: store.maxBytes)
          }
        } catch {
          store.fail(error)
        }
      }
      let flushes = jobs.compactMap { job -> CheckedContinuation<Void, Never>? in
        if case .flush(let continuation) = job { continuation } else { nil }
      }
      if !flushes.isEmpty {
        // Best effort: a checkpoint that finds another process reading leaves the rest for later.
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      }
      for continuation in flushes { continuation.resume() }
    }
  }

  /// Writes `writes` in the caller's transaction.
  private func commit(_ writes: [StoreWrite], on connection: SQLiteConnection) throws(SQLiteError) {
    for write in writes {
      switch write {
      case .save(let key, let items, let fetchedAt):
        let encoded = StoredItemsCoding.encode(items)
        try connection.query(
          "INSERT OR REPLACE INTO answers (source, term, scope, lim, country, items, fetched_at, used_at, bytes) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          key.values + [.blob(encoded), .integer(fetchedAt), .integer(fetchedAt), .integer(Int64(encoded.count))])
      case .markUsed(let key, let instant):
        try connection.query(
          "UPDATE answers SET used_at = max(used_at, ?) "
            + "WHERE source = ? AND term = ? AND scope = ? AND lim = ? AND country = ?",
          [.integer(instant)] + key.values)
      case .finishRequest(let budget, let id, let endedAt):
        try connection.query(
          "UPDATE requests SET ended_at = ? WHERE budget = ? AND id = ?", [.integer(endedAt), .text(budget), .text(id)])
      }
    }
  }

  /// Deletes, in the caller's transaction, the least recently used answers until at most
  /// `capacity` answers of at most `maxBytes` bytes remain.
  private func evict(on connection: SQLiteConnection, capacity: Int, maxBytes: Int) throws(SQLiteError) {
    var count = try connection.integer("SELECT count(*) FROM answers") ?? 0
    var bytes = try connection.integer("SELECT coalesce(sum(bytes), 0) FROM answers") ?? 0
    guard count > capacity || bytes > maxBytes else { return }
    var victims: [StoreKey] = []
    try connection.query("SELECT source, term, scope, lim, country, bytes FROM answers ORDER BY used_at") { row in
      guard count > capacity || bytes > maxBytes else { return }
      victims.append(
        StoreKey(
          source: row.text(0), term: row.text(1), scope: row.text(2), limit: Int(row.integer(3)), country: row.text(4)))
      count -= 1
      bytes -= row.integer(5)
    }
    for key in victims {
      try connection.query(
        "DELETE FROM answers WHERE source = ? AND term = ? AND scope = ? AND lim = ? AND country = ?", key.values)
    }
  }
}
