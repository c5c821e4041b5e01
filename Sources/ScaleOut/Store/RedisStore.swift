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
/// ) { line in print("Warning: \(line)") }
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
public final class RedisStore: SharedStore {
  /// How long an answer is kept after it was saved: the offline fallback's horizon. 7 days.
  public static let retention: Duration = .seconds(7 * 86_400)
  /// How many times a reservation is decided again after another worker's changed the budget
  /// before this one reports busy (and is asked again by the budget).
  static let reservationAttempts = 8

  /// Most answers kept; the least recently used beyond are evicted.
  public let capacity: Int
  /// Milliseconds since 1970 on the server's clock (see the type's documentation).
  public var wallClock: any WallClock { serverClock }
  private let serverClock = ServerWallClock()
  private let endpoint: RedisEndpoint
  private let keys: ScaleOutKeys
  private let reads: StoreChannel?
  private let writes: StoreChannel?
  private let report: @Sendable (String) -> Void
  private let state: Mutex<SharedStoreStatus>
  private let gate = Gate()

  /// A store on `endpoint` under `keys`' prefix. Never throws: a store that cannot start its
  /// threads is returned off, after `report` was told why.
  public init(
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
  public var status: SharedStoreStatus { state.withLock { $0 } }

  /// The answer stored for `key`; nil on a miss, an unreadable value, or a server away.
  public func answer(for key: StoreKey) async -> StoredAnswer? {
    guard let reads, isOn else { return nil }
    let name = keys.answer(Self.name(of: key))
    let outcome = await reads.run { link -> Result<RESPValue, LinkFailure> in
      Result { () throws(LinkFailure) -> RESPValue in
        try link.perform(attempts: 1) { (connection: RESPConnection) throws(RESPError) -> RESPValue in
          try connection.readyCall(RESPCommand("GET", name))
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
  public func save(_ items: [Category: [SearchItem]], fetchedAt: Int64, for key: StoreKey) {
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
      if !names.isEmpty { _ = write([RESPCommand("DEL", arguments: names)], on: link) }
    }
  }

  /// Hands "used at `instant`" to the writer thread (for the least-recently-used order).
  public func markUsed(_ key: StoreKey, at instant: Int64) {
    guard let writes, isOn else { return }
    let name = keys.answer(Self.name(of: key))
    let used = keys.answers
    writes.submit { [self] link in _ = write([RESPCommand("ZADD", used, "XX", instant, name)], on: link) }
  }

  /// Reads budget `name` under `WATCH`, decides, and records in `MULTI`/`EXEC`; decided again
  /// when another worker changed the budget in between.
  public func reserve<Decision: Sendable>(
    inBudget name: String, since: Int64, _ decide: ([BudgetEntry]) -> (Decision, record: BudgetEntry?)
  ) async throws(SharedStoreFailure) -> Decision {
    guard let reads else { throw .off }
    guard isOn else { throw .off }
    let granted = keys.budget(name)
    let ended = keys.budgetEnds(name)
    // One reservation at a time per store: its WATCH lives on the reads' connection from the read
    // to the EXEC, and another reservation's EXEC in between would end it.
    await gate.enter()
    defer { gate.leave() }
    for _ in 0..<Self.reservationAttempts {
      let read = await reads.run { link in Self.readBudget(granted: granted, ended: ended, link: link) }
      let budget: BudgetRead
      switch read {
      case .success(let value): budget = value
      case .failure(let failure):
        fail(failure)
        throw isOn ? .busy : .off
      }
      serverClock.correct(serverTime: budget.serverTime, sentAt: budget.sentAt, receivedAt: budget.receivedAt)
      let (decision, record) = decide(budget.entries.filter { $0.grantedAt >= since })
      let forgotten = budget.entries.filter { $0.grantedAt < since }.map(\.id)
      let written = await reads.run { link in
        Self.writeBudget(
          granted: granted, ended: ended, record: record, forgotten: forgotten, connection: budget.connection,
          link: link)
      }
      switch written {
      case .success(true): return decision
      case .success(false): continue  // Another worker wrote in between: read and decide again.
      case .failure(let failure):
        fail(failure)
        throw isOn ? .busy : .off
      }
    }
    throw .busy
  }

  /// A budget as read under `WATCH`, with the server's time and the local instants around it.
  private struct BudgetRead: Sendable {
    let entries: [BudgetEntry]
    let serverTime: Int64
    let sentAt: Int64
    let receivedAt: Int64
    /// The link's connection the `WATCH` is on: the write must use the same one.
    let connection: Int
  }

  private static func readBudget(granted: String, ended: String, link: RedisLink) -> Result<BudgetRead, LinkFailure> {
    let clock = SystemWallClock()
    return Result { () throws(LinkFailure) -> BudgetRead in
      try link.perform(attempts: 1) { (connection: RESPConnection) throws(RESPError) -> BudgetRead in
        let sentAt = clock.millisecondsSinceEpoch
        let replies = try connection.readyPipeline([
          RESPCommand("WATCH", granted, ended),
          RESPCommand("TIME"),
          RESPCommand("ZRANGE", granted, "-inf", "+inf", "BYSCORE", "WITHSCORES"),
          RESPCommand("HGETALL", ended),
        ])
        let receivedAt = clock.millisecondsSinceEpoch
        guard let time = serverTime(replies[1]) else {
          throw .protocolViolation("TIME answered \(describe(replies[1]))")
        }
        guard let entries = entries(granted: replies[2], ended: replies[3]) else {
          throw .server("the budget \(granted) holds something else: \(describe(replies[2]))")
        }
        return BudgetRead(
          entries: entries, serverTime: time, sentAt: sentAt, receivedAt: receivedAt,
          connection: link.connectionNumber)
      }
    }
  }

  /// Records `record` and forgets `forgotten` if nobody changed the budget since its read: true;
  /// false when somebody did (or the connection of the read is gone).
  private static func writeBudget(
    granted: String, ended: String, record: BudgetEntry?, forgotten: [String], connection number: Int,
    link: RedisLink
  ) -> Result<Bool, LinkFailure> {
    Result { () throws(LinkFailure) -> Bool in
      try link.perform(attempts: 1) { (connection: RESPConnection) throws(RESPError) -> Bool in
        // A new connection has no WATCH: the read must be done again.
        guard link.connectionNumber == number else { return false }
        var transaction = [RESPCommand("MULTI")]
        if !forgotten.isEmpty {
          transaction.append(RESPCommand("ZREM", arguments: [granted] + forgotten))
          transaction.append(RESPCommand("HDEL", arguments: [ended] + forgotten))
        }
        if let record {
          transaction.append(RESPCommand("ZADD", granted, record.grantedAt, record.id))
          if let end = record.endedAt { transaction.append(RESPCommand("HSET", ended, record.id, end)) }
        }
        // Budgets nobody uses for a day go.
        transaction.append(RESPCommand("PEXPIRE", granted, 86_400_000))
        transaction.append(RESPCommand("PEXPIRE", ended, 86_400_000))
        transaction.append(RESPCommand("EXEC"))
        let replies = try connection.readyPipeline(transaction)
        guard let exec = replies.last else { throw .protocolViolation("no reply to EXEC") }
        if exec.isNull { return false }
        if let message = exec.errorMessage ?? replies.lazy.compactMap(\.errorMessage).first {
          throw .server(message)
        }
        return true
      }
    }
  }

  /// Hands "request `id` ended at `endedAt`" to the writer thread; returns at once.
  public func finishRequest(_ id: String, inBudget name: String, endedAt: Int64) {
    guard let writes, isOn else { return }
    let ended = keys.budgetEnds(name)
    writes.submit { [self] link in _ = write([RESPCommand("HSET", ended, id, endedAt)], on: link) }
  }

  /// Turns the store off for the rest of the run, reporting why once.
  public func turnOff(because reason: String) {
    let first = state.withLock { status -> Bool in
      guard case .on = status else { return false }
      status = .off(reason: reason)
      return true
    }
    if first { report("the shared store on Redis at \(endpoint) is off: \(reason)") }
  }

  /// Returns once every write handed over so far has been sent and answered (or dropped).
  public func flush() async {
    guard let writes else { return }
    await writes.run { _ in }
  }

  // MARK: Internals

  private var isOn: Bool { state.withLock { $0 == .on } }

  /// Runs `commands` in one round trip on the writer's link; nil when the server is away (the
  /// write is dropped: an answer not shared is fetched again, an end not recorded holds its
  /// permit until the rule's lease frees it).
  private func write(_ commands: [RESPCommand], on link: RedisLink) -> [RESPValue]? {
    do throws(LinkFailure) {
      let replies = try link.perform(attempts: 1) { (connection: RESPConnection) throws(RESPError) -> [RESPValue] in
        try connection.readyPipeline(commands)
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
  private func fail(_ failure: LinkFailure) {
    switch failure {
    case .fatal(let error): turnOff(because: "\(error)")
    case .exhausted(let error):
      if case .protocolViolation = error { turnOff(because: "\(error)") }
    case .stopped: break
    }
  }

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

  /// `TIME`'s `[seconds, microseconds]` in milliseconds.
  static func serverTime(_ reply: RESPValue) -> Int64? {
    guard let parts = reply.array, parts.count == 2, let seconds = parts[0].string.flatMap({ Int64($0) }),
      let micros = parts[1].string.flatMap({ Int64($0) }), seconds >= 0, seconds < 1 << 40
    else { return nil }
    return seconds * 1_000 + micros / 1_000
  }

  /// The budget's entries from its sorted set (`WITHSCORES`) and its hash of ends; nil when
  /// either reply is not what those commands give.
  static func entries(granted: RESPValue, ended: RESPValue) -> [BudgetEntry]? {
    guard let flat = granted.array, flat.count % 2 == 0, let endFlat = ended.array, endFlat.count % 2 == 0 else {
      return nil
    }
    var ends: [String: Int64] = [:]
    for index in stride(from: 0, to: endFlat.count, by: 2) {
      guard let id = endFlat[index].string, let end = endFlat[index + 1].string.flatMap({ Int64($0) }) else {
        return nil
      }
      ends[id] = end
    }
    var entries: [BudgetEntry] = []
    for index in stride(from: 0, to: flat.count, by: 2) {
      guard let id = flat[index].string, let score = flat[index + 1].string.flatMap({ Double($0) }),
        score.isFinite, abs(score) < 1e15
      else { return nil }
      entries.append(BudgetEntry(id: id, grantedAt: Int64(score), endedAt: ends[id]))
    }
    return entries
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

/// Lets one task in at a time; the others wait in line, suspended.
private final class Gate: Sendable {
  private let state = Mutex<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

  func enter() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        guard state.busy else {
          state.busy = true
          return true
        }
        state.waiting.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  func leave() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiting.isEmpty else {
        state.busy = false
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}

/// The system's calendar clock, corrected to the server's: every reservation reads the server's
/// `TIME` and keeps the difference, taken at the middle of the round trip.
final class ServerWallClock: WallClock {
  private let offset = Atomic<Int64>(0)
  private let local = SystemWallClock()

  var localMilliseconds: Int64 { local.millisecondsSinceEpoch }

  var millisecondsSinceEpoch: Int64 { local.millisecondsSinceEpoch + offset.load(ordering: .relaxed) }

  func correct(serverTime: Int64, sentAt: Int64, receivedAt: Int64) {
    offset.store(serverTime - (sentAt + receivedAt) / 2, ordering: .relaxed)
  }

  func sleep(for duration: Duration) async throws {
    try await local.sleep(for: duration)
  }
}
