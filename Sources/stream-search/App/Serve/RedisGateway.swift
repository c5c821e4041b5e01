// `serve --redis`'s link to the deployment: keystrokes go out through the same publisher as
// `stream-search publish`, and one reader following every shard's event stream (as `events
// --follow` does) brings the workers' events back to the sessions this gateway opened. It keeps no
// state a restart loses, so any number of gateways can stand behind a load balancer.
import Foundation
import LineIO
import Pipeline
import RESP
import ScaleOut
import Synchronization

/// The publisher, the event reader and the sessions of one gateway.
final class RedisGateway: Sendable {
  /// How long a `/search` waits for the workers' answer before it is answered 504: far beyond
  /// any debounce and search timeout, so that only a deployment with no live worker reaches it.
  static let answerTimeout = Duration.seconds(30)

  let sessions: GatewaySessions
  let endpoint: RedisEndpoint
  private let publisher: KeystrokePublisher
  private let notices: RedisNotices
  private let stopReading: CancellationSignal
  /// Why the reader ended for good (a failure no reconnection fixes); nil while it reads.
  private let readerFailure = Mutex<String?>(nil)
  /// Whether the reader's thread has ended, and who waits for it to.
  private let reading = Mutex<(ended: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

  private init(
    sessions: GatewaySessions, endpoint: RedisEndpoint, publisher: KeystrokePublisher, notices: RedisNotices
  ) throws(LineInputError) {
    self.sessions = sessions
    self.endpoint = endpoint
    self.publisher = publisher
    self.notices = notices
    stopReading = try CancellationSignal()
  }

  /// Connects the publisher (settling the shard count as `publish` does) and starts the reader.
  ///
  /// - Throws: ``ScaleOutError`` when Redis cannot be reached or the shard count conflicts;
  ///   `CancellationError` when `stop` fires first.
  static func connect(_ options: RedisOptions, log: Log, stop: CancellationSignal?, clock: ContinuousClock) throws
    -> RedisGateway
  {
    let notices = RedisNotices(endpoint: options.endpoint, log: log)
    let publisher = try KeystrokePublisher.connect(
      endpoint: options.endpoint, keys: options.keys, requestedShards: options.shards, stoppingOn: stop,
      notice: notices.receive, refused: { message in log.warning("Redis refused a keystroke: \(message)") })
    let gateway: RedisGateway
    do {
      gateway = try RedisGateway(
        sessions: GatewaySessions(clock: clock), endpoint: options.endpoint, publisher: publisher, notices: notices)
    } catch {
      publisher.stop()
      throw error
    }
    gateway.startReading(options, log: log)
    return gateway
  }

  /// Why the gateway cannot serve a new session now, for a person; nil when it can.
  var unavailability: String? {
    if let failure = readerFailure.withLock({ $0 }) { return failure }
    return notices.isConnected ? nil : "Redis at \(endpoint) is unreachable; try again later"
  }

  /// Publishes `term` as the field's text of `session`, in order after its earlier keystrokes.
  func publish(_ term: String, session: String) async {
    await publisher.publish(Keystroke(term: term, session: session))
  }

  /// Searches `term` once as a session of its own; the body of its `results` (or `error`) event,
  /// or nil when no answer came within ``answerTimeout``.
  func searchOnce(_ term: String, clock: ContinuousClock) async -> [UInt8]? {
    let session = GatewaySessions.newSessionName()
    let sessions = self.sessions
    let publisher = self.publisher
    return await withTaskGroup(of: Void.self) { group in
      group.addTask {
        try? await clock.sleep(for: Self.answerTimeout)
        sessions.expire(session)
      }
      let answer = await sessions.answer(of: session) {
        Task { await publisher.publish(Keystroke(term: term, session: session)) }
      }
      group.cancelAll()
      return answer
    }
  }

  /// Sends what is still queued (for at most `grace`), then stops the publisher and the reader.
  func stop(within grace: Duration) async -> PublishOutcome {
    let outcome = await publisher.finish(within: grace)
    publisher.stop()
    stopReading.signal()
    // The reader's waits all end on its stop signal: this wait is short.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ended = reading.withLock { state -> Bool in
        if !state.ended { state.waiter = continuation }
        return state.ended
      }
      if ended { continuation.resume() }
    }
    return outcome
  }

  private func startReading(_ options: RedisOptions, log: Log) {
    let reader = EventReader(
      endpoint: options.endpoint, keys: options.keys, stop: stopReading, notice: notices.receive,
      missed: { gaps in for line in EventsCommand.describe(gaps) { log.warning(line) } })
    let sessions = self.sessions
    let thread = Thread { [self] in
      do {
        try reader.run(follow: true, session: nil) { event in
          sessions.deliver(event)
          return true
        }
      } catch {
        let message = (error as? ScaleOutError)?.description ?? "\(error)"
        log.error("cannot read the workers' events: \(message); no new session is accepted")
        readerFailure.withLock { $0 = "cannot read the workers' events from Redis at \(options.endpoint)" }
      }
      let waiter = reading.withLock { state -> CheckedContinuation<Void, Never>? in
        state.ended = true
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume()
    }
    thread.name = "GatewayEventReader"
    thread.start()
  }
}
