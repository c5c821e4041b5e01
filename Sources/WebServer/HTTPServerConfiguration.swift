// Every resource a client can hold has a limit or a timeout here, each with its default and the
// answer a client gets past it.

/// The server's limits and timeouts.
///
/// | Setting | Default | Past it |
/// |---|---|---|
/// | ``maxHeadBytes`` | 16,384 | 431, then closed |
/// | ``headTimeout`` | 10 s | closed (a head not complete in time: slowloris; also an idle keep-alive connection) |
/// | ``maxBodyBytes`` | 1 MiB | 413, then closed |
/// | ``maxMessageBytes`` | 64 KiB | WebSocket close 1009 |
/// | ``maxConnections`` | 10,000 | 503, then closed |
/// | ``outboxLimitBytes`` | 1 MiB | WebSocket close 1008 (a client that stops reading) |
/// | ``allowedOrigins`` | none | 403 for an upgrade from another origin |
/// | ``acceptsBinaryMessages`` | false | WebSocket close 1003 |
/// | ``closeTimeout`` | 2 s | the socket is closed without the client's close frame |
/// | ``stopGrace`` | 2 s | ``HTTPServer/stop()`` closes what is left |
public struct HTTPServerConfiguration: Sendable {
  /// The largest request head (request line and fields, with their line ends) read; a longer one
  /// is answered 431 and the connection closed.
  public var maxHeadBytes = 16_384
  /// How long a connection may take to send a whole request head, counted from when the server
  /// starts waiting for one (on accepting, and after each response on a kept-alive connection).
  /// Past it the connection is closed without an answer.
  public var headTimeout: Duration = .seconds(10)
  /// The largest request body (`Content-Length`); a larger one is answered 413 and closed.
  public var maxBodyBytes = 1 << 20
  /// The largest WebSocket message (all its fragments); a larger one closes the connection with
  /// 1009. It is also how much the server reads ahead of a handler: with more than this unread in
  /// ``WebSocketConnection/messages``, the server stops reading that client until the handler
  /// catches up.
  public var maxMessageBytes = 64 << 10
  /// The most connections open at once; one more is answered 503 and closed.
  public var maxConnections = 10_000
  /// The most bytes queued for one WebSocket client and not yet taken by its socket. A send past
  /// it closes the connection with 1008 (the client stopped reading); no other connection waits.
  public var outboxLimitBytes = 1 << 20
  /// Origins, as browsers send them (`https://example.com`, `http://localhost:3000`), whose pages
  /// may open a WebSocket here, besides the server's own (an `Origin` whose host and port are the
  /// request's `Host`). `"*"` allows any. An upgrade with no `Origin` (not from a browser) is
  /// always allowed; any other is answered 403.
  public var allowedOrigins: Set<String> = []
  /// Whether binary WebSocket messages are accepted; when not, one closes the connection with 1003.
  /// Accepted binary messages are dropped (``WebSocketConnection/messages`` carries text).
  public var acceptsBinaryMessages = false
  /// How long the server waits for the client's close frame (or for its last bytes to be taken)
  /// after closing a connection, before it closes the socket anyway.
  public var closeTimeout: Duration = .seconds(2)
  /// How long ``HTTPServer/stop()`` lets open connections finish their close handshakes and
  /// in-flight responses before it closes them.
  public var stopGrace: Duration = .seconds(2)

  /// The defaults above.
  public init() {}
}
