// The handshake's arithmetic and the text check, against published values.
import Testing

@testable import WebServer

@Suite struct PrimitivesTests {
  @Test func sha1MatchesFIPSExamples() {
    let hex = { (bytes: [UInt8]) in
      bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
    #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    #expect(hex(SHA1.digest(Array(twoBlocks.utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(hex(SHA1.digest([UInt8](repeating: 0x61, count: 1_000))) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
  }

  @Test func acceptValueIsRFC6455sExample() {
    #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func base64RoundTripsAndRefusesMalformedText() {
    for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar"] {
      let encoded = Base64.encode(Array(text.utf8))
      #expect(Base64.decode(encoded) == Array(text.utf8))
    }
    #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
    #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
    #expect(Base64.decode("Zm8") == nil)
    #expect(Base64.decode("Z=m8") == nil)
    #expect(Base64.decode("Zm*=") == nil)
  }

  @Test func utf8ValidationRefusesWhatRFC3629Forbids() {
    #expect(UTF8Validation.isValid(Array("héllo wörld ☃ 𝄞".utf8)))
    #expect(UTF8Validation.isValid([]))
    #expect(!UTF8Validation.isValid([0xC0, 0xAF]))  // overlong "/"
    #expect(!UTF8Validation.isValid([0xE0, 0x80, 0xAF]))  // overlong
    #expect(!UTF8Validation.isValid([0xED, 0xA0, 0x80]))  // a surrogate
    #expect(!UTF8Validation.isValid([0xF4, 0x90, 0x80, 0x80]))  // past U+10FFFF
    #expect(!UTF8Validation.isValid([0xE2, 0x98]))  // cut short
    #expect(!UTF8Validation.isValid([0x80]))  // a lone continuation
    #expect(!UTF8Validation.isValid([0xFF]))
    #expect(UTF8Validation.isValid([0xF4, 0x8F, 0xBF, 0xBF]))  // U+10FFFF
  }

  @Test func originIsTheServersOwnOrListed() {
    #expect(WebSocketHandshake.isAllowed(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080", allowed: []))
    #expect(WebSocketHandshake.isAllowed(origin: "https://Example.com", host: "example.com:443", allowed: []))
    #expect(!WebSocketHandshake.isAllowed(origin: "http://evil.example", host: "127.0.0.1:8080", allowed: []))
    #expect(!WebSocketHandshake.isAllowed(origin: "null", host: "127.0.0.1:8080", allowed: []))
    #expect(
      WebSocketHandshake.isAllowed(origin: "http://app.example", host: "api.example", allowed: ["http://app.example"]))
    #expect(WebSocketHandshake.isAllowed(origin: "http://any.example", host: "api.example", allowed: ["*"]))
  }

  @Test func queryValuesAreDecoded() {
    let request = HTTPRequest(
      method: "GET", path: "/search", query: "q=bohemian+rhapsody&limit=5&e=&x=%E2%98%83&bad=%ZZ")
    #expect(request.queryValue("q") == "bohemian rhapsody")
    #expect(request.queryValue("limit") == "5")
    #expect(request.queryValue("e") == "")
    #expect(request.queryValue("x") == "☃")
    #expect(request.queryValue("bad") == nil)
    #expect(request.queryValue("missing") == nil)
  }

  @Test(arguments: [
    (502, "Bad Gateway"), (503, "Service Unavailable"), (504, "Gateway Timeout"), (599, "Status 599"),
  ])
  func aStatusLineCarriesItsReason(status: Int, reason: String) {
    let head = String(decoding: HTTPResponse(status: status).encoded(keepAlive: false), as: UTF8.self)
    #expect(head.hasPrefix("HTTP/1.1 \(status) \(reason)\r\n"))
  }
}
