// `publish`'s engine: keystrokes are queued by the reading side and appended to their shards'
// streams by a sender thread, as many as are waiting in one pipelined round trip. The queue is
// bounded: when Redis is slow or away, the reading side waits, and nothing read is dropped.
import Foundation
import Pipeline
import RESP
import Streams
import Synchronization

/// Appends keystrokes to the keystroke streams of their shards.
///
/// ```swift
/// let publisher = try KeystrokePublisher.connect(endpoint: endpoint, keys: keys, requestedShards: nil)
/// await publisher.publish(Keystroke(term: "tay", session: "u42"))
/// await publisher.finish()   // returns once Redis has acknowledged every keystroke
/// ```
///
/// - Element: each keystroke becomes one `XADD <shard's keystroke stream> * term … [session …]`,
///   in the order published (per shard, and so per session).
/// - Failure: a lost connection is made again with backoff (reported through `notice`) and the
///   unacknowledged keystrokes are sent again: delivery is at least once, so a keystroke whose
///   acknowledgement was lost may be appended twice (a repeated keystroke changes no search).
///   Redis refusing a keystroke (e.g. the key holds another type) is reported through `refused`.
/// - Cancellation: ``stop()`` ends the sender at once; keystrokes not acknowledged are dropped.
public final class KeystrokePublisher: Sendable {
  private struct State {
    var queue: [Keystroke] = []
    var head = 0
    var finished = false
    var roomWaiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var nextWaiter = 0
    var doneWaiters: [CheckedContinuation<Void, Never>] = []
    var senderEnded = false

    var waiting: Int { queue.count - head }
  }

  /// Keystrokes queued beyond which `publish` waits.
  public static let queueLimit = 50_000
  /// Keystrokes sent in one round trip at most.
  static let batchLimit = 5_000

  /// The shards of the deployment.
  public let shardCount: Int
  private let endpoint: RedisEndpoint
  /// Each shard's keystroke stream, named once.
  private let streams: [String]
  private let options: RESPConnection.Options
  private let notice: @Sendable (LinkNotice) -> Void
  private let refused: @Sendable (String) -> Void
  private let state = Mutex(State())
  private let arrived: WakePipe
  private let stopSignal: CancellationSignal
  /// Fired once ``finish(within:)`` has returned.
  private let drained: CancellationSignal

  private init(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, shardCount: Int, options: RESPConnection.Options,
    notice: @escaping @Sendable (LinkNotice) -> Void, refused: @escaping @Sendable (String) -> Void
  ) throws {
    self.endpoint = endpoint
    self.shardCount = shardCount
    streams = (0..<shardCount).map { keys.keystrokes(shard: $0) }
    self.options = options
    self.notice = notice
    self.refused = refused
    arrived = try WakePipe()
    stopSignal = try CancellationSignal()
    drained = try CancellationSignal()
  }

  /// Connects, settles the shard count, and starts the sender thread.
  ///
  /// - Throws: ``ScaleOutError`` when Redis cannot be reached or the shard count conflicts.
  public static func connect(
    endpoint: RedisEndpoint, keys: ScaleOutKeys, requestedShards: Int?,
    options: RESPConnection.Options = RESPConnection.Options(),
    notice: @escaping @Sendable (LinkNotice) -> Void = { _ in },
    refused: @escaping @Sendable (String) -> Void = { _ in }
  ) throws -> KeystrokePublisher {
    let connection: RESPConnection
    do {
      connection = try RESPConnection(endpoint: endpoint, options: options)
    } catch {
      throw ScaleOutError.unreachable(endpoint, error)
    }
    defer { connection.close() }
    let shardCount: Int
    do {
      shardCount = try ShardCount.settle(requested: requestedShards, keys: keys, on: connection)
    } catch let error as RESPError {
      throw ScaleOutError.unreachable(endpoint, error)
    }
    let publisher = try KeystrokePublisher(
      endpoint: endpoint, keys: keys, shardCount: shardCount, options: options, notice: notice, refused: refused)
    let thread = Thread { publisher.send() }
    thread.name = "KeystrokePublisher"
    thread.start()
    return publisher
  }

  /// Queues `keystroke`; waits while the queue is full, unless the task is cancelled (the
  /// keystroke stays queued either way).
  public func publish(_ keystroke: Keystroke) async {
    let full = state.withLock { state -> Bool in
      state.queue.append(keystroke)
      return state.waiting >= Self.queueLimit && !state.senderEnded
    }
    arrived.signal()
    guard full else { return }
    let id = state.withLock { state -> Int in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          guard state.waiting >= Self.queueLimit, !state.senderEnded, !Task.isCancelled else { return true }
          state.roomWaiters.append((id, continuation))
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard let index = state.roomWaiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.roomWaiters.remove(at: index).continuation
      }
      waiter?.resume()
    }
  }

  /// Returns once every keystroke published has been acknowledged by Redis, or the publisher
  /// was stopped, or `limit` passed (then the publisher is stopped: what is left is dropped).
  public func finish(within limit: Duration? = nil) async {
    state.withLock { $0.finished = true }
    arrived.signal()
    if let limit {
      Thread.detachNewThread { [self] in
        if !StopWait.wait(for: limit, clock: ContinuousClock(), stop: drained) { stop() }
      }
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        guard state.waiting > 0, !state.senderEnded else { return true }
        state.doneWaiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
    drained.signal()
  }

  /// Ends the sender at once.
  public func stop() {
    stopSignal.signal()
  }

  private func send() {
    let link = RedisLink(endpoint: endpoint, options: options, stop: stopSignal, notice: notice)
    defer {
      link.close()
      let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        state.senderEnded = true
        defer {
          state.roomWaiters = []
          state.doneWaiters = []
        }
        return state.roomWaiters.map(\.continuation) + state.doneWaiters
      }
      for waiter in waiters { waiter.resume() }
    }
    let clock = ContinuousClock()
    while !stopSignal.isSignalled {
      let batch = state.withLock { state in
        Array(state.queue[state.head..<min(state.queue.count, state.head + Self.batchLimit)])
      }
      if batch.isEmpty {
        arrived.wait(timeout: .seconds(1), clock: clock, stop: stopSignal)
        continue
      }
      var request = RESPRequest()
      request.reserveCapacity(batch.count * 96)
      for keystroke in batch { append(keystroke, to: &request) }
      let replies: [RESPValue]
      do throws(LinkFailure) {
        replies = try link.perform { (connection: RESPConnection) throws(RESPError) -> [RESPValue] in
          try connection.readyPipeline(request)
        }
      } catch {
        return
      }
      for message in Set(replies.compactMap(\.errorMessage)) { refused(message) }
      let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        state.head += batch.count
        if state.head == state.queue.count {
          state.queue.removeAll(keepingCapacity: true)
          state.head = 0
        } else if state.head > 65_536 {
          state.queue.removeSubrange(0..<state.head)
          state.head = 0
        }
        var woken: [CheckedContinuation<Void, Never>] = []
        if state.waiting < Self.queueLimit / 2 {
          woken += state.roomWaiters.map(\.continuation)
          state.roomWaiters = []
        }
        if state.waiting == 0 {
          woken += state.doneWaiters
          state.doneWaiters = []
        }
        return woken
      }
      for waiter in woken { waiter.resume() }
    }
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
