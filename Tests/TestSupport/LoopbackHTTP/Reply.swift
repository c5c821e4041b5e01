// What the loopback server answers to one request: a status, headers, a body and a fault to inject.
import Foundation

/// One HTTP header.
public struct HTTPHeader: Sendable, Hashable {
  /// The header's name as sent.
  public var name: String
  /// The header's value.
  public var value: String

  /// Creates a header.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// A misbehaviour of the server, applied to one answer.
///
/// Every wait (`delay`, `noAnswer`, the pauses of `slowDrip`) is a `poll(2)` on the connection,
/// so the server notices at once when the client gives up and records it on the request.
public enum Fault: Sendable, Hashable {
  /// Answer normally.
  case none
  /// Wait this long, then answer normally (unless the client closes first).
  case delay(Duration)
  /// Answer 403 with an empty body, as iTunes does when its rate limit is exceeded.
  case emptyBody403
  /// Answer the reply's status with an HTML page (a captive portal, a proxy's error page).
  case htmlPage
  /// Answer the reply's status with a JSON body cut off in the middle.
  case malformedJSON
  /// Announce the reply's body in Content-Length, send only its first half, then close.
  case truncatedBody
  /// Read the request, then reset the connection (SO_LINGER 0 and close: the client sees RST).
  case connectionReset
  /// Never answer: hold the connection until the client closes it or the server stops.
  case noAnswer
  /// Answer the reply's status and headers with a valid JSON body of `bytes` bytes: with
  /// Content-Length, or chunked (no length announced, so only counting can catch it). The log
  /// records how much of it was sent (`ReceivedRequest.bodyBytesSent`).
  case oversized(bytes: Int, chunked: Bool = false)
  /// Answer the reply's status and headers with a chunked body that never ends, `chunk` bytes
  /// at a time and `every` between two (zero: as fast as the client reads), until the client
  /// closes or the server stops: "the client stopped early" is then observable on any machine.
  /// The log records how much of it was sent.
  case endlessBody(chunk: Int = 64 * 1024, every: Duration = .zero)
  /// Announce `length` bytes in Content-Length, send only the first `sending` of them, then hold
  /// the connection, sending nothing more, until the client closes or the server stops. The log
  /// records the bytes sent.
  case announcedBody(length: Int, sending: Int)
  /// Answer 200 with `Content-Encoding: gzip` and a body of about `inflatedBytes` / 1,032 bytes
  /// that inflates to `inflatedBytes` zero bytes (a decompression bomb, see `GzipBomb`).
  case gzipBomb(inflatedBytes: Int)
  /// Announce the reply's body, then send it `chunk` bytes at a time, waiting `every` between.
  case slowDrip(chunk: Int, every: Duration)
}

/// The server's answer to one request.
public struct Reply: Sendable, Hashable {
  /// The HTTP status.
  public var status: Int
  /// Extra headers; Content-Length and Connection are added by the server.
  public var headers: [HTTPHeader]
  /// The body.
  public var body: Data
  /// The misbehaviour to apply, `.none` for a well-formed answer.
  public var fault: Fault

  /// Creates a reply.
  public init(status: Int = 200, headers: [HTTPHeader] = [], body: Data = Data(), fault: Fault = .none) {
    self.status = status
    self.headers = headers
    self.body = body
    self.fault = fault
  }

  /// A JSON answer.
  public static func json(_ body: Data, status: Int = 200) -> Reply {
    Reply(status: status, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: body)
  }

  /// A JSON answer from text.
  public static func json(_ text: String, status: Int = 200) -> Reply {
    json(Data(text.utf8), status: status)
  }

  /// An answer with only a status and an empty body.
  public static func status(_ code: Int) -> Reply {
    Reply(status: code)
  }

  /// A 200 answer that misbehaves as `fault` says.
  public static func fault(_ fault: Fault) -> Reply {
    Reply(status: 200, fault: fault)
  }
}
