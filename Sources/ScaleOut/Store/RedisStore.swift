// The shared store on Redis: what `--cache-dir` gives the processes of one machine, for every
// worker of a deployment. It stores and fetches; the rules (freshness, the stale fallback, the
// budget's window) are the pipeline's, the same as for the SQLite store.
import Foundation
import Pipeline
import RESP
import Streams
import Synchronization

/// Answers and request budgets shared by every worker on one Redis server: the ``SharedStore``
/// of a deployment.
///
/// ```swift
/// let store = RedisStore(
///   endpoint: try RedisEndpoint(url: "redis://127.0.0.1:6379"), keys: try ScaleOutKeys(prefix: "stream-search")
/// ) { line in warn.yield("Warning: \(line)") }  // warn: an AsyncStream's continuation
/// var configuration = PipelineConfiguration()
/// configuration.store = store
/// ```
///
/// - Answers: `P:answer:<key>` (a string: the fetch instant, 8 bytes big-endian milliseconds, then
///   the items in the stores' common layout), kept ``retention`` after they were saved, so an
///   expired answer is still there as the offline fallback; `P:answers` (a sorted set of answer
///   keys by last use) bounds them to ``capacity``, the least recently used evicted first.
/// - Budgets: `{P:budget:<name>}` (a sorted set: member the request's id, score the instant its
///   permit was granted) and `{P:budget:<name>}:ended` (a hash: id → the instant it ended). A
///   reservation reads both under `WATCH`, runs the pipeline's rule on them and records its entry
///   in `MULTI`/`EXEC`: a reservation of another worker in between aborts it, and it is read and
///   decided again. Instants are the server's: ``wallClock`` is the local clock corrected by the
///   server's `TIME`, read again at every reservation, so workers whose clocks disagree still
///   share one window.
/// - Threads: reads and reservations run in order on one thread of the store's own, writes on
///   another; callers suspend, never block.
/// - Failure: a server that cannot be reached now makes reads miss, writes drop and reservations
///   answer ``SharedStoreFailure/busy`` (the budget asks again, and turns the store off after 30 s
///   of that). A reply that is not what a command returns (a foreign key type, garbage) turns the
///   store off: `report` gets one line saying why, and the worker goes on with its own cache and
///   `--rate-limit` alone.
package final class RedisStore: SharedStore {
  /// How long an answer is kept after it was saved: the offline fallback's horizon. 7 days.
  package static let retention: Duration = .seconds(7 * 86_400)
  /// How many times a reservation is decided again after another worker's changed the budget
  /// before this one reports busy (and is asked again by the budget).
  static let reservationAttempts = 8

  /// Most answers kept; the least recently used beyond are evicted.
  package let capacity: Int
  /// Milliseconds since 1970 on the server's clock (see the type's documentation).
  package var wallClock: any WallClock { serverClock }
  let serverClock = ServerWallClock()
  private let endpoint: RedisEndpoint
  let keys: ScaleOutKeys
  let reads: StoreChannel?
  private let writes: StoreChannel?
  private let report: @Sendable (String) -> Void
  private let state: Mutex<SharedStoreStatus>
  let gate = AsyncGate()

  /// A store on `endpoint` under `keys`' prefix. Never throws: a store that cannot start its
  /// threads is returned off, after `report` was told why.
  package init(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, capacity: Int = 10_000,
    options: RESPConnection.Options = RESPConnection.Options(),
    report: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.endpoint = endpoint
    self.keys = keys
    self.capacity = max(1, capacity)
    self.report = report
    let channels = try? (
      StoreChannel(endpoint: endpoint, options: options, name: "RedisStore reads"),
      StoreChannel(endpoint: endpoint, options: options, name: "RedisStore writes")
    )
    reads = channels?.0
    writes = channels?.1
    state = Mutex(channels == nil ? .off(reason: "no pipe for its threads could be made") : .on)
    if channels == nil {
      report("the shared store on Redis at \(endpoint) is off: no pipe for its threads could be made")
    }
  }

  deinit {
    reads?.close()
    writes?.close()
  }

  /// Whether the store is in use.
  package var status: SharedStoreStatus { state.withLock { $0 } }

  /// The answer stored for `key`; nil on a miss, an unreadable value, or a server away.
  package func answer(for key: StoreKey) async -> StoredAnswer? {
    guard let reads, isOn else { return nil }
    let name = keys.answer(Self.name(of: key))
    let outcome = await reads.run { link -> Result<RESPValue, LinkFailure> in
      Result { () throws(LinkFailure) -> RESPValue in
        try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
          try nodes.connection(for: name).readyCall(RESPCommand("GET", name))
        }
      }
    }
    switch outcome {
    case .success(.bulkString(let bytes)):
      return Self.decodeAnswer(bytes)
    case .success(.null):
      return nil
    case .success(let other):
      turnOff(because: "GET \(name) answered \(Self.describe(other))")
      return nil
    case .failure(let failure):
      fail(failure)
      return nil
    }
  }

  /// Hands the answer to the writer thread; returns at once.
  package func save(_ items: [Category: [SearchItem]], fetchedAt: Int64, for key: StoreKey) {
    guard let writes, isOn else { return }
    let name = keys.answer(Self.name(of: key))
    let value = Self.encodeAnswer(StoredAnswer(items: items, fetchedAt: fetchedAt))
    let used = keys.answers
    let capacity = capacity
    writes.submit { [self] link in
      let commands = [
        RESPCommand("SET", name, value, "PX", Self.retention.wholeMilliseconds),
        RESPCommand("ZADD", used, fetchedAt, name),
        RESPCommand("ZCARD", used),
      ]
      let replies = write(commands, on: link)
      guard let count = replies?.last?.integer, count > capacity else { return }
      // Beyond the capacity: the least recently used go, their answers with them.
      let evicted = write([RESPCommand("ZPOPMIN", used, Int(count) - capacity)], on: link)
      let names = (evicted?.first?.array ?? []).enumerated().filter { $0.offset % 2 == 0 }.compactMap(\.element.string)
      // One DEL per answer: in a cluster each is a slot of its own.
      if !names.isEmpty { _ = write(names.map { RESPCommand("DEL", $0) }, on: link) }
    }
  }

  /// Hands "used at `instant`" to the writer thread (for the least-recently-used order).
  package func markUsed(_ key: StoreKey, at instant: Int64) {
    guard let writes, isOn else { return }
    let name = keys.answer(Self.name(of: key))
    let used = keys.answers
    writes.submit { [self] link in _ = write([RESPCommand("ZADD", used, "XX", instant, name)], on: link) }
  }

  /// Hands "request `id` ended at `endedAt`" to the writer thread; returns at once.
  package func finishRequest(_ id: String, inBudget name: String, endedAt: Int64) {
    guard let writes, isOn else { return }
    let ended = keys.budgetEnds(name)
    writes.submit { [self] link in _ = write([RESPCommand("HSET", ended, id, endedAt)], on: link) }
  }

  /// Turns the store off for the rest of the run, reporting why once.
  package func turnOff(because reason: String) {
    let first = state.withLock { status -> Bool in
      guard case .on = status else { return false }
      status = .off(reason: reason)
      return true
    }
    if first { report("the shared store on Redis at \(endpoint) is off: \(reason)") }
  }

  /// Returns once every write handed over so far has been sent and answered (or dropped).
  package func flush() async {
    guard let writes else { return }
    await writes.run { _ in }
  }

  // MARK: Internals

  var isOn: Bool { state.withLock { $0 == .on } }

  /// Runs `commands` in one round trip on the writer's link; nil when the server is away (the
  /// write is dropped: an answer not shared is fetched again, an end not recorded holds its
  /// permit until the rule's lease frees it).
  private func write(_ commands: [RESPCommand], on link: RedisLink) -> [RESPValue]? {
    do throws(LinkFailure) {
      let replies = try link.perform(attempts: 1) { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
        try nodes.pipeline(commands)
      }
      if let failed = zip(commands, replies).first(where: { $0.1.errorMessage != nil }) {
        turnOff(because: "\(failed.0.name) answered \(failed.1.errorMessage ?? "")")
        return nil
      }
      return replies
    } catch {
      fail(error)
      return nil
    }
  }

  /// A failure that a new connection cannot fix, or a reply that is not RESP (a server that is
  /// not Redis, or a hostile one), turns the store off; one that a new connection may fix is a
  /// miss now.
  func fail(_ failure: LinkFailure) {
    switch failure {
    case .fatal(let error): turnOff(because: "\(error)")
    case .exhausted(let error):
      if case .protocolViolation = error { turnOff(because: "\(error)") }
    case .stopped: break
    }
  }
}

extension RedisStore {
  /// The answer's key: each field with its length, so that no two keys share a name whatever
  /// bytes their fields hold.
  static func name(of key: StoreKey) -> String {
    [key.source, key.term, key.scope, String(key.limit), key.country].map { "\($0.utf8.count):\($0)" }
      .joined(separator: "|")
  }

  static func encodeAnswer(_ answer: StoredAnswer) -> [UInt8] {
    var bytes = withUnsafeBytes(of: answer.fetchedAt.bigEndian) { Array($0) }
    bytes += answer.encoded
    return bytes
  }

  /// Nil for a value shorter than its instant (not ours): a miss.
  static func decodeAnswer(_ bytes: [UInt8]) -> StoredAnswer? {
    guard bytes.count >= 8 else { return nil }
    let instant = bytes[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    return StoredAnswer(encoded: Array(bytes[8...]), fetchedAt: instant)
  }

  static func describe(_ value: RESPValue) -> String {
    switch value {
    case .error(let message): message
    case .array(let elements): "an array of \(elements.count)"
    case .integer(let number): "the integer \(number)"
    default: "an unexpected reply"
    }
  }
}
