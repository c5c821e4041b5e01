// With `--redis`, each WebSocket (and each `/search`) is a session of the deployment, named at
// random so that no two gateways ever share one, and its events come back from the workers through
// the shards' event streams. This table hands each committed event to the socket or the `/search`
// of its session as the in-process serve sends it: `seq` counted per connection, `at_ms` on this
// server's clock, and without the session's name (the connection is the session).
import Pipeline
import ScaleOut
import Synchronization
import WebServer

/// The sessions this gateway opened, and the committed events routed to them.
final class GatewaySessions: Sendable {
  private struct Socket {
    let connection: WebSocketConnection
    var seq = 0
  }

  private struct State {
    var sockets: [String: Socket] = [:]
    var searches: [String: CheckedContinuation<[UInt8]?, Never>] = [:]
  }

  private let state = Mutex(State())
  private let clock: ContinuousClock
  private let started: ContinuousClock.Instant

  init(clock: ContinuousClock) {
    self.clock = clock
    started = clock.now
  }

  /// A session name no other gateway picks: 128 random bits, as `gw-` and 32 hex digits.
  static func newSessionName() -> String {
    var generator = SystemRandomNumberGenerator()
    let halves = [generator.next() as UInt64, generator.next() as UInt64].map { half in
      let digits = String(half, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
    return "gw-" + halves.joined()
  }

  /// A new session for `socket`.
  func open(_ socket: WebSocketConnection) -> String {
    let name = Self.newSessionName()
    state.withLock { $0.sockets[name] = Socket(connection: socket) }
    return name
  }

  /// Forgets the socket of `session`: its later events are dropped.
  func close(_ session: String) {
    _ = state.withLock { $0.sockets.removeValue(forKey: session) }
  }

  /// The number of open sockets.
  var openSockets: Int { state.withLock { $0.sockets.count } }

  /// Waits for the answer of the one-keystroke session `session` (its `results`, `error` or
  /// `cancelled` event, as the body of a `/search` response); `publish` is called once the waiter
  /// is registered, so that no answer can come before it. Nil when ``expire(_:)`` came first.
  func answer(of session: String, publish: @Sendable () -> Void) async -> [UInt8]? {
    await withCheckedContinuation { continuation in
      state.withLock { $0.searches[session] = continuation }
      publish()
    }
  }

  /// Ends the wait for `session`'s answer with nil, if it is still waiting.
  func expire(_ session: String) {
    state.withLock { $0.searches.removeValue(forKey: session) }?.resume(returning: nil)
  }

  /// Sends `event`, made here rather than by a worker (an `input_error`), to the socket of `session`.
  func send(_ event: SearchEvent, to session: String) {
    var bytes = JSONLinesEncoder.line(event)
    bytes.removeLast()
    route(bytes, session: session, type: event.typeName)
  }

  /// The event reader's sink: a committed event to the socket or the `/search` of its session;
  /// the events of other gateways' sessions are dropped.
  func deliver(_ event: StoredEvent) {
    guard let session = event.session else { return }
    route(event.json, session: session, type: event.type)
  }

  private func route(_ json: [UInt8], session: String, type: String) {
    enum Route {
      case socket(WebSocketConnection, seq: Int)
      case search(CheckedContinuation<[UInt8]?, Never>)
    }
    let now = started.duration(to: clock.now).wholeMilliseconds
    let route = state.withLock { state -> Route? in
      if var socket = state.sockets[session] {
        socket.seq += 1
        state.sockets[session] = socket
        return .socket(socket.connection, seq: socket.seq)
      }
      guard ["results", "error", "cancelled"].contains(type) else { return nil }
      return state.searches.removeValue(forKey: session).map(Route.search)
    }
    switch route {
    case .socket(let socket, let seq):
      let bytes = Self.restamped(json, seq: seq, atMilliseconds: now)
      _ = socket.send(String(decoding: bytes, as: UTF8.self))
    case .search(let continuation):
      continuation.resume(returning: Self.restamped(json, seq: 1, atMilliseconds: now))
    case nil:
      break
    }
  }

  /// `json` with `seq` and `at_ms` replaced and its `session` field taken out, by the encoder
  /// that wrote it.
  static func restamped(_ json: [UInt8], seq: Int, atMilliseconds: Int64) -> [UInt8] {
    JSONLinesEncoder.restamping(json, seq: seq, atMilliseconds: atMilliseconds, withoutSession: true) ?? json
  }
}
