// The reader thread: for each shard just taken it claims every pending keystroke (a dead or
// departed owner's) and feeds them first, then reads new keystrokes of all held shards, each read
// fenced by the shard's lease, and feeds them to the pipeline on this thread. When nothing is
// new it blocks in XREAD until something is; a change of shards unblocks it.
import Foundation
import LineIO
import Pipeline
import RESP
import Streams

final class ShardReader: Sendable {
  private let context: WorkerContext
  private let feed: AsyncFeed<InputRecord>
  private let stop: CancellationSignal
  private let finished: CancellationSignal
  /// The longest a blocking read waits before looking at the board again.
  static let blockMilliseconds = 500
  /// In a cluster, how long a reader with nothing new waits before reading again.
  static let clusterPollMilliseconds = 20
  /// After a read that found fewer than `lingerBelow` keystrokes (or a wake from a blocking
  /// read), the reader waits this long before reading again, so that at a steady trickle each
  /// read (two round trips and a transaction) carries a few hundred keystrokes, not a handful.
  /// Small beside the debounce every keystroke waits anyway.
  static let linger = Duration.milliseconds(5)
  static let lingerBelow = 256
  /// The longest term accepted from an entry, as from an input line.
  static let maxTermBytes = InputLine.defaultMaxLength

  init(context: WorkerContext, feed: AsyncFeed<InputRecord>, stop: CancellationSignal) throws {
    self.context = context
    self.feed = feed
    self.stop = stop
    finished = try CancellationSignal()
  }

  func start() {
    let thread = Thread { [self] in
      run()
      finished.signal()
    }
    thread.name = "ShardReader"
    thread.start()
  }

  /// Returns once the thread has ended (it ends when the stop signal fires).
  func waitUntilFinished() {
    _ = StopWait.wait(for: .seconds(3_600), clock: ContinuousClock(), stop: finished)
  }

  private func run() {
    let link = RedisLink(
      endpoint: context.endpoint, options: context.settings.connection, stop: stop, notice: context.notice)
    defer { link.close() }
    let clock = ContinuousClock()
    var lastIDs: [Int: String] = [:]
    var busy: Set<Int> = []
    var registered = 0
    var lingering = false
    var full = FullRedisWait()
    while !stop.isSignalled, !context.hasFailed {
      do throws(LinkFailure) {
        let (claims, held) = context.board.nextForReader()
        for holding in claims { try claimPending(of: holding, link: link) }
        if context.outbox.isFull(count: context.settings.outboxLimit, bytes: context.settings.outboxBytes) {
          context.outbox.drained.wait(timeout: .seconds(1), clock: clock, stop: stop)
          continue
        }
        guard !held.isEmpty else {
          context.board.changed.wait(timeout: .seconds(1), clock: clock, stop: stop)
          continue
        }
        if lingering {
          lingering = false
          if StopWait.wait(for: Self.linger, clock: clock, stop: stop) { return }
          continue
        }
        if let delivered = try readNew(of: held, link: link, lastIDs: &lastIDs, busy: &busy, full: &full) {
          lingering = delivered < Self.lingerBelow
        } else {
          try block(on: held, after: lastIDs, link: link, registered: &registered)
          lingering = true
        }
      } catch {
        // Stopped, or a failure reconnecting cannot fix (credentials refused): the reader ends,
        // and the worker with it.
        switch error {
        case .stopped: break
        case .fatal(let failure), .exhausted(let failure): context.fail(failure)
        }
        return
      }
    }
  }

  /// Claims and feeds every pending keystroke of a shard just taken, oldest first.
  private func claimPending(of holding: ShardHolding, link: RedisLink) throws(LinkFailure) {
    let keys = context.keys
    var cursor = "0-0"
    repeat {
      let call = ScriptCall(
        script: .claim, keys: [keys.lease(shard: holding.shard), keys.keystrokes(shard: holding.shard)],
        arguments: [holding.lease, ScaleOutKeys.group, context.settings.name, cursor, context.settings.readBatch])
      let reply = try link.perform { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
        try link.runScripts([call], on: nodes)[0]
      }
      if reply.errorMessage?.contains("NOGROUP") == true {
        try createGroup(of: holding.shard, link: link)
        continue
      }
      guard let parts = reply.array, parts.count == 2, let next = parts[0].string else { return }
      admit(parts[1].array ?? [], of: holding)
      cursor = next
    } while cursor != "0-0" && !stop.isSignalled
  }

  /// Reads and feeds new keystrokes of every held shard (one fenced read, two round trips): how
  /// many came, or nil when none did and none is to be read at once (the reader may block).
  /// `busy` holds the shards whose last read found keystrokes: their last ids are not asked for.
  private func readNew(
    of held: [ShardHolding], link: RedisLink, lastIDs: inout [Int: String], busy: inout Set<Int>,
    full: inout FullRedisWait
  ) throws(LinkFailure) -> Int? {
    let keys = context.keys
    let settings = context.settings
    let asked = busy
    var outcomes: [Int: FencedReadOutcome]?
    if try link.isCluster() {
      // Each shard's keys are a slot of their own: one fenced read per shard, on its master. A
      // shard that changed hands meanwhile is read again at once.
      var each: [Int: FencedReadOutcome] = [:]
      for holding in held {
        let fence = keys.fence(shard: holding.shard)
        let read = try link.perform { (nodes: LinkNodes) throws(RESPError) -> [Int: FencedReadOutcome]? in
          try FencedRead.read(
            [holding], keys: keys, group: ScaleOutKeys.group, consumer: settings.name, count: settings.readBatch,
            busy: asked, on: nodes.connection(for: fence))
        }
        each[holding.shard] = read?[holding.shard] ?? .nothingNew
      }
      outcomes = each
    } else {
      outcomes = try link.perform { (nodes: LinkNodes) throws(RESPError) -> [Int: FencedReadOutcome]? in
        try FencedRead.read(
          held, keys: keys, group: ScaleOutKeys.group, consumer: settings.name, count: settings.readBatch,
          busy: asked, on: nodes.connection(for: ""))
      }
    }
    busy = []
    // A shard changed hands while the read was on its way: nothing was read; read again at once.
    guard let outcomes else { return 0 }
    for case .outOfMemory(let refusal) in outcomes.values {
      // Nothing was read: wait for room, then read again.
      if full.refused(refusal, notice: context.notice, stop: stop) { throw .stopped }
      return 0
    }
    full.succeeded(notice: context.notice)
    var anything = false
    var delivered = 0
    for holding in held {
      switch outcomes[holding.shard] ?? .refused {
      case .entries(let entries):
        admit(entries, of: holding)
        anything = true
        delivered += entries.count
        busy.insert(holding.shard)
      case .nothingAfter(let id):
        lastIDs[holding.shard] = id
      case .nothingNew:
        // Its last id is asked for at the next read, which comes before any blocking wait (a
        // linger may come first).
        anything = true
      case .noGroup:
        // The stream or its group was deleted (or Redis restarted empty): made again, read next round.
        try createGroup(of: holding.shard, link: link)
        anything = true
      case .refused, .outOfMemory:
        // Not ours any more, or refused: the lease keeper notices at its next round.
        lastIDs[holding.shard] = nil
      }
    }
    return anything ? delivered : nil
  }

  /// Waits for a keystroke after `lastIDs` on any held shard, at most half a second.
  private func block(
    on held: [ShardHolding], after lastIDs: [Int: String], link: RedisLink, registered: inout Int
  ) throws(LinkFailure) {
    let watched = held.compactMap { holding in lastIDs[holding.shard].map { (holding.shard, $0) } }
    // In a cluster one XREAD cannot wait on streams of several slots: the reader looks again a
    // moment later instead (sooner when the shards change).
    guard !watched.isEmpty, try !link.isCluster() else {
      let pause = watched.isEmpty ? Self.blockMilliseconds : Self.clusterPollMilliseconds
      context.board.changed.wait(timeout: .milliseconds(pause), clock: ContinuousClock(), stop: stop)
      return
    }
    let keys = context.keys
    var arguments: [any RESPArgument] = ["COUNT", 1, "BLOCK", Self.blockMilliseconds, "STREAMS"]
    arguments += watched.map { keys.keystrokes(shard: $0.0) } as [any RESPArgument]
    arguments += watched.map(\.1) as [any RESPArgument]
    let command = RESPCommand("XREAD", arguments: arguments)
    let timeout = context.settings.connection.replyTimeout + .milliseconds(Self.blockMilliseconds)
    _ = try link.perform { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
      let connection = try nodes.connection(for: "")
      if link.connectionNumber != registered {
        // The lease keeper unblocks this connection when shards change: it needs its id.
        let id = try connection.readyCall(RESPCommand("CLIENT", "ID")).integer
        context.board.setReaderClientID(id)
        registered = link.connectionNumber
      }
      return try connection.readyCall(command, timeout: timeout)
    }
  }

  private func createGroup(of shard: Int, link: RedisLink) throws(LinkFailure) {
    let key = context.keys.keystrokes(shard: shard)
    _ = try link.perform { (nodes: LinkNodes) throws(RESPError) -> RESPValue in
      try nodes.connection(for: key).readyCall(
        RESPCommand("XGROUP", "CREATE", key, ScaleOutKeys.group, "0", "MKSTREAM"))
    }
  }

  /// Records `entries` in the ledger, then feeds them to the pipeline (outside the ledger's lock:
  /// the pipeline may emit at once, and its sink takes that lock).
  private func admit(_ entries: [RESPValue], of holding: ShardHolding) {
    guard !entries.isEmpty, context.board.holds(holding) else { return }
    let parsed = entries.compactMap(Self.entry)
    let drafts = context.ledger.withLock { ledger in parsed.map { ledger.admit($0, of: holding) } }
    for draft in drafts {
      switch draft.outcome {
      case .success(let term):
        feed.yield(.keystroke(Keystroke(term: term, session: draft.session), line: draft.line))
      case .failure(let refusal):
        feed.yield(.invalid(line: draft.line, reason: refusal.reason))
      }
    }
  }

  /// A stream entry `[id, [field, value, …]]` as a keystroke, or why it is not one; nil for an
  /// entry deleted while pending (no fields: nothing to process).
  static func entry(_ value: RESPValue) -> ShardEntry? {
    guard let parts = value.array, parts.count == 2, let id = parts[0].string, let fields = parts[1].array else {
      return nil
    }
    var term: [UInt8]?
    var session: [UInt8]?
    var index = 0
    while index + 1 < fields.count {
      if case .bulkString(let name) = fields[index], case .bulkString(let content) = fields[index + 1] {
        if name.elementsEqual("term".utf8) {
          term = content
        } else if name.elementsEqual("session".utf8) {
          session = content
        }
      }
      index += 2
    }
    let sessionName = session.flatMap { String(validating: $0, as: UTF8.self) }.flatMap { $0.isEmpty ? nil : $0 }
    if session != nil, sessionName == nil, session?.isEmpty == false {
      return ShardEntry(id: id, session: nil, term: .failure(EntryRefusal(reason: "the session is not UTF-8")))
    }
    guard let term else {
      return ShardEntry(id: id, session: sessionName, term: .failure(EntryRefusal(reason: "the entry has no term")))
    }
    guard term.count <= maxTermBytes else {
      return ShardEntry(
        id: id, session: sessionName,
        term: .failure(EntryRefusal(reason: "term too long (\(term.count) bytes; the maximum is \(maxTermBytes))")))
    }
    guard let text = String(validating: term, as: UTF8.self) else {
      return ShardEntry(id: id, session: sessionName, term: .failure(EntryRefusal(reason: "the term is not UTF-8")))
    }
    return ShardEntry(id: id, session: sessionName, term: .success(text))
  }
}
