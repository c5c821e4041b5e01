// `publish`'s engine: keystrokes are queued by the reading side and appended to their shards'
// streams by a sender thread, as many as are waiting in one pipelined round trip. The queue is
// bounded: when Redis is slow or away, the reading side waits, and nothing read is dropped.
import Foundation
import LineIO
import Pipeline
import RESP
import Streams
import Synchronization

/// Appends keystrokes to the keystroke streams of their shards.
///
/// ```swift
/// let publisher = try KeystrokePublisher.connect(endpoint: endpoint, keys: keys, requestedShards: nil)
/// await publisher.publish(Keystroke(term: "tay", session: "u42"), line: 1)
/// let outcome = await publisher.finish()   // once Redis has acknowledged every keystroke
/// ```
///
/// - Element: each keystroke becomes one `XADD <shard's keystroke stream> * term … [session …]`,
///   in the order published (per shard, and so per session).
/// - Failure: a lost connection is made again with backoff (reported through `notice`) and the
///   unacknowledged keystrokes are sent again: delivery is at least once, so a keystroke whose
///   acknowledgement was lost may be appended twice (a repeated keystroke changes no search).
///   Redis refusing a keystroke (out of memory, a key of another type) or a failure no new
///   connection fixes (a reply of the wrong type) ends the publisher: nothing after it is sent,
///   so that every keystroke before the first not stored is stored, and ``finish(within:)``'s
///   ``PublishOutcome`` says how many were and which input line to resume from.
/// - Cancellation: ``stop()`` ends the sender at once, ``stop(after:)`` once a grace period has
///   passed; keystrokes not acknowledged by then are not sent (the outcome says from where).
package final class KeystrokePublisher: Sendable {
  /// Keystrokes queued beyond which `publish` waits.
  package static let queueLimit = 50_000
  /// Keystrokes sent in one round trip at most.
  static let batchLimit = 5_000
  /// How often the stored shard count is checked (and stored again if Redis lost it).
  static let confirmEvery = Duration.seconds(1)

  /// The shards of the deployment.
  package let shardCount: Int
  private let endpoint: RedisEndpoint
  private let keys: ScaleOutKeys
  /// Each shard's keystroke stream, named once.
  private let streams: [String]
  private let options: RESPConnection.Options
  private let notice: @Sendable (LinkNotice) -> Void
  private let refused: @Sendable (String) -> Void
  private let state = Mutex(PublishQueue(limit: KeystrokePublisher.queueLimit))
  private let nextWaiter = Atomic<Int>(0)
  private let arrived: WakePipe
  private let stopSignal: CancellationSignal
  /// Fired once ``finish(within:)`` has returned.
  private let drained: CancellationSignal

  private init(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, shardCount: Int, options: RESPConnection.Options,
    notice: @escaping @Sendable (LinkNotice) -> Void, refused: @escaping @Sendable (String) -> Void
  ) throws {
    self.endpoint = endpoint
    self.keys = keys
    self.shardCount = shardCount
    streams = (0..<shardCount).map { keys.keystrokes(shard: $0) }
    self.options = options
    self.notice = notice
    self.refused = refused
    arrived = try WakePipe()
    stopSignal = try CancellationSignal()
    drained = try CancellationSignal()
  }

  /// Connects, settles the shard count, and starts the sender thread. `refused` is told Redis's
  /// message when it refuses a keystroke (the publisher then ends).
  ///
  /// - Throws: ``ScaleOutError`` when Redis cannot be reached, is out of memory, or the shard
  ///   count conflicts; `CancellationError` when `stop` fires first.
  package static func connect(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, requestedShards: Int?,
    options: RESPConnection.Options = RESPConnection.Options(), stoppingOn stop: CancellationSignal? = nil,
    notice: @escaping @Sendable (LinkNotice) -> Void = { _ in },
    refused: @escaping @Sendable (String) -> Void = { _ in }
  ) throws -> KeystrokePublisher {
    let shardCount = try ShardCount.settle(
      requested: requestedShards, keys: keys, endpoint: endpoint, options: options, stop: stop)
    let publisher = try KeystrokePublisher(
      endpoint: endpoint, keys: keys, shardCount: shardCount, options: options, notice: notice, refused: refused)
    let thread = Thread { publisher.send() }
    thread.name = "KeystrokePublisher"
    thread.start()
    return publisher
  }

  /// Queues `keystroke`, read from input line `line`; waits while the queue is full, unless the
  /// task is cancelled (the keystroke stays queued either way). False once the publisher has
  /// ended: nothing more will be sent, and reading can stop.
  @discardableResult
  package func publish(_ keystroke: Keystroke, line: Int? = nil) async -> Bool {
    let (open, full) = state.withLock { state in
      (state.enqueue(PendingKeystroke(keystroke: keystroke, line: line)), state.isFull)
    }
    guard open else { return false }
    arrived.signal()
    guard full else { return true }
    let id = nextWaiter.add(1, ordering: .relaxed).newValue
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let parked = state.withLock { $0.waitForRoom(id: id, continuation, cancelled: Task.isCancelled) }
        if !parked { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.cancelWait(id: id) }?.resume()
    }
    return !state.withLock { $0.senderEnded }
  }

  /// Returns once every keystroke published has been acknowledged by Redis, or the publisher
  /// ended (stopped, or a failure), or `limit` passed (then the publisher is stopped: what is
  /// left is not sent); the outcome says how many were stored.
  @discardableResult
  package func finish(within limit: Duration? = nil) async -> PublishOutcome {
    arrived.signal()
    if let limit { stop(after: limit) }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let parked = state.withLock { $0.waitForDone(continuation) }
      if !parked { continuation.resume() }
    }
    drained.signal()
    return outcome
  }

  /// How it went so far: published, stored, where to resume, and the failure if one ended it.
  package var outcome: PublishOutcome { state.withLock { $0.outcome } }

  /// Runs `action` once the sender has ended, by a stop or a failure (at once if it has): a
  /// reader of the input can stop reading then.
  package func whenEnded(_ action: @escaping @Sendable () -> Void) {
    let registered = state.withLock { $0.whenEnded(action) }
    if !registered { action() }
  }

  /// Ends the sender at once.
  package func stop() {
    stopSignal.signal()
  }

  /// Ends the sender once `grace` has passed, unless ``finish(within:)`` has returned by then:
  /// what a stop request allows for sending what was read.
  package func stop(after grace: Duration) {
    Thread.detachNewThread { [self] in
      if !StopWait.wait(for: grace, clock: ContinuousClock(), stop: drained) { stop() }
    }
  }

  private func send() {
    let link = RedisLink(endpoint: endpoint, options: options, stop: stopSignal, loadsScripts: false, notice: notice)
    var failure: PublishFailure?
    defer {
      link.close()
      let (waiters, actions) = state.withLock { $0.end(failure) }
      for waiter in waiters { waiter.resume() }
      for action in actions { action() }
    }
    let clock = ContinuousClock()
    var confirmed = clock.now
    while !stopSignal.isSignalled {
      let batch = state.withLock { $0.nextBatch(Self.batchLimit) }
      if batch.isEmpty {
        arrived.wait(timeout: .seconds(1), clock: clock, stop: stopSignal)
        continue
      }
      if confirmed.duration(to: clock.now) >= Self.confirmEvery {
        // Redis may have lost its data since: the count is stored again, or, if another command
        // stored another first, nothing more is sent to shards it no longer names.
        let keys = self.keys
        let count = shardCount
        let found: Result<ShardCount.Confirmation, ScaleOutError>
        do throws(LinkFailure) {
          found = try link.perform { (nodes: LinkNodes) throws(RESPError) in
            try ShardCount.confirmation(count, keys: keys, on: nodes.connection(for: keys.configuration))
          }
        } catch .fatal(let error), .exhausted(let error) {
          failure = .unusable(error)
          return
        } catch {
          return
        }
        if case .failure(let error) = found, !Self.isOutOfMemory(error) {
          failure = .prefixChanged(error)
          return
        }
        confirmed = clock.now
      }
      let replies: [RESPValue]
      do throws(LinkFailure) {
        replies = try link.perform { (nodes: LinkNodes) throws(RESPError) -> [RESPValue] in
          try store(batch, on: nodes)
        }
      } catch .fatal(let error), .exhausted(let error) {
        failure = .unusable(error)
        return
      } catch {
        return
      }
      // The first refusal ends the publisher there: every keystroke before it is stored, and
      // none after it is sent, so the input can be resumed from its line.
      let refusal = replies.firstIndex { $0.errorMessage != nil }
      let settled = refusal ?? replies.count
      let storedLater = replies[settled...].dropFirst().filter { $0.errorMessage == nil }.count
      let woken = state.withLock { $0.acknowledge(settled: settled, storedLater: storedLater) }
      for waiter in woken { waiter.resume() }
      if let refusal, let message = replies[refusal].errorMessage {
        refused(message)
        failure = .refusal(message)
        return
      }
    }
  }

  private static func isOutOfMemory(_ error: ScaleOutError) -> Bool {
    if case .outOfMemory = error { true } else { false }
  }

  /// Appends `batch` in one round trip (per master, in a cluster); in a cluster, its replies
  /// count only once a replica of each master written to has the keystrokes, so that a failover
  /// loses none that `publish` was told were stored (they are sent again otherwise).
  private func store(_ batch: [PendingKeystroke], on nodes: LinkNodes) throws(RESPError) -> [RESPValue] {
    guard nodes.isCluster else {
      var request = RESPRequest()
      request.reserveCapacity(batch.count * 96)
      for pending in batch { append(pending.keystroke, to: &request) }
      return try nodes.connection(for: "").readyPipeline(request)
    }
    let commands = batch.map { command(for: $0.keystroke) }
    let replies = try nodes.pipeline(commands)
    try nodes.waitForReplicas(of: Set(batch.map { stream(of: $0.keystroke) }))
    return replies
  }

  private func stream(of keystroke: Keystroke) -> String {
    streams[ShardHash.shard(of: keystroke.session, shardCount: shardCount)]
  }

  private func command(for keystroke: Keystroke) -> RESPCommand {
    let stream = stream(of: keystroke)
    if let session = keystroke.session {
      return RESPCommand("XADD", stream, "*", "term", keystroke.term, "session", session)
    }
    return RESPCommand("XADD", stream, "*", "term", keystroke.term)
  }

  private func append(_ keystroke: Keystroke, to request: inout RESPRequest) {
    let stream = streams[ShardHash.shard(of: keystroke.session, shardCount: shardCount)]
    if let session = keystroke.session {
      request.append("XADD", stream, "*", "term", keystroke.term, "session", session)
    } else {
      request.append("XADD", stream, "*", "term", keystroke.term)
    }
  }
}
