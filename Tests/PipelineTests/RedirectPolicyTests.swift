// The redirect rule on its own, for the cases a loopback server cannot show: https servers, and
// what a Location resolves to.
import Foundation
import Testing

@testable import ITunes
@testable import Pipeline

struct RedirectPolicyTests {
  static func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

  @Test func fromHttpsDownToHttpIsRefused() throws {
    let decision = RedirectPolicy.decide(
      location: "http://itunes.example/search?term=a", chain: [try Self.url("https://itunes.example/search?term=a")])
    #expect(decision == .refuse("from https down to http://itunes.example/search?…"))
  }

  @Test func fromHttpUpToHttpsAndToAnotherHostIsFollowed() throws {
    let start = try Self.url("http://itunes.example/search?term=a")
    #expect(
      RedirectPolicy.decide(location: "https://itunes.example/search?term=a", chain: [start])
        == .follow(try Self.url("https://itunes.example/search?term=a")))
    #expect(
      RedirectPolicy.decide(location: "https://mirror.example:8443/s?term=a", chain: [start])
        == .follow(try Self.url("https://mirror.example:8443/s?term=a")))
  }

  @Test func aRelativeLocationResolvesAgainstTheURLThatAnswered() throws {
    let start = try Self.url("http://itunes.example/api/search?term=a")
    #expect(
      RedirectPolicy.decide(location: "v2?term=a", chain: [start])
        == .follow(try Self.url("http://itunes.example/api/v2?term=a")))
    #expect(
      RedirectPolicy.decide(location: "//other.example/x", chain: [start])
        == .follow(try Self.url("http://other.example/x")))
  }

  @Test(arguments: ["file:///etc/passwd", "FILE:///etc/passwd", "ftp://h/x", "javascript:alert(1)", "data:,x"])
  func otherSchemesAreRefused(location: String) throws {
    let decision = RedirectPolicy.decide(location: location, chain: [try Self.url("http://itunes.example/search")])
    guard case .refuse(let reason) = decision else {
      Issue.record("followed \(location)")
      return
    }
    #expect(reason.hasSuffix("is neither http nor https"))
  }

  @Test func aMissingOrUnusableLocationIsRefused() throws {
    let start = try Self.url("http://itunes.example/search")
    #expect(RedirectPolicy.decide(location: nil, chain: [start]) == .refuse("its Location is missing or not a URL"))
    #expect(
      RedirectPolicy.decide(location: "http://[::1", chain: [start]) == .refuse("its Location is missing or not a URL"))
  }

  @Test func aLongTargetIsShortenedInTheReason() throws {
    let long = "gopher://h/" + String(repeating: "x", count: 500)
    guard case .refuse(let reason) = RedirectPolicy.decide(location: long, chain: [try Self.url("http://h/")]) else {
      Issue.record("followed")
      return
    }
    #expect(reason.count < 140)
  }
}
