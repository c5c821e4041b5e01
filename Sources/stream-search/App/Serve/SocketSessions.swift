// Each WebSocket is one session of the shared pipeline, and each `/search` request one session that
// ends with its keystroke. This table is the pipeline's sink: it hands each event to the socket or
// the request whose session it is, with the session's name taken off (the connection is the
// session, so the client never named one).
import Pipeline
import Streams
import Synchronization
import WebServer

/// The sessions of open sockets and waiting `/search` requests, and the events routed to them.
final class SocketSessions: Sendable {
  private struct State {
    var nextSession = 0
    var nextLine = 0
    var sockets: [String: WebSocketConnection] = [:]
    var searches: [String: CheckedContinuation<SearchEvent, Never>] = [:]
    /// The pipeline's line of each message that was not a keystroke, until its `input_error`
    /// comes out: the socket it came from and its number among that socket's messages.
    var invalidMessages: [Int: (session: String, message: Int)] = [:]
  }

  private let state = Mutex(State())

  /// A new session for `socket`, named for the pipeline only.
  func open(_ socket: WebSocketConnection) -> String {
    state.withLock { state in
      state.nextSession += 1
      let name = "ws-\(state.nextSession)"
      state.sockets[name] = socket
      return name
    }
  }

  /// Forgets the socket of `session`: its later events are dropped.
  func close(_ session: String) {
    _ = state.withLock { $0.sockets.removeValue(forKey: session) }
  }

  /// A number for the next input line (the pipeline names the keystroke each event is about).
  func nextLine() -> Int {
    state.withLock { state in
      state.nextLine += 1
      return state.nextLine
    }
  }

  /// A line number for message `message` of `session`, which is not a keystroke: its
  /// `input_error` goes to that socket, naming the message's number on that connection.
  func nextLine(invalidMessage message: Int, of session: String) -> Int {
    state.withLock { state in
      state.nextLine += 1
      state.invalidMessages[state.nextLine] = (session, message)
      return state.nextLine
    }
  }

  /// Searches `term` once in a session of its own, fed by `feed`, and returns its `results`,
  /// `error` (or `cancelled`, when the server stops) event.
  func searchOnce(_ term: String, feed: AsyncFeed<InputRecord>) async -> SearchEvent {
    let (name, line) = state.withLock { state in
      state.nextSession += 1
      state.nextLine += 1
      return ("q-\(state.nextSession)", state.nextLine)
    }
    return await withCheckedContinuation { continuation in
      state.withLock { $0.searches[name] = continuation }
      feed.yield(.keystroke(Keystroke(term: term, session: name, endsSession: true), line: line))
    }
  }

  /// The pipeline's sink: the event to its socket, or to the `/search` waiting for it.
  func deliver(_ event: SearchEvent) {
    var event = event
    if case .inputError(let line, let reason) = event.kind {
      // Named by its line: the pipeline knows no session of a message that is not a keystroke.
      let target = state.withLock { state -> (WebSocketConnection, Int)? in
        guard let (session, message) = state.invalidMessages.removeValue(forKey: line),
          let socket = state.sockets[session]
        else { return nil }
        return (socket, message)
      }
      if let (socket, message) = target {
        event.kind = .inputError(line: message, reason: reason)
        send(event, to: socket)
      }
      return
    }
    guard let session = event.session else { return }
    event.session = nil
    enum Route {
      case socket(WebSocketConnection)
      case search(CheckedContinuation<SearchEvent, Never>)
    }
    let route = state.withLock { state -> Route? in
      if let socket = state.sockets[session] { return .socket(socket) }
      switch event.kind {
      case .results, .error, .cancelled, .cleared:
        return state.searches.removeValue(forKey: session).map(Route.search)
      default:
        return nil
      }
    }
    switch route {
    case .socket(let socket):
      send(event, to: socket)
    case .search(let continuation):
      continuation.resume(returning: event)
    case nil:
      break
    }
  }

  private func send(_ event: SearchEvent, to socket: WebSocketConnection) {
    var bytes = JSONLinesEncoder.line(event)
    bytes.removeLast()
    _ = socket.send(String(decoding: bytes, as: UTF8.self))
  }
}

extension JSONLinesEncoder {
  /// `event` as one JSON line's bytes, ending in a newline.
  static func line(_ event: SearchEvent) -> [UInt8] {
    var bytes: [UInt8] = []
    JSONLinesEncoder().encode(event, into: &bytes)
    return bytes
  }
}
