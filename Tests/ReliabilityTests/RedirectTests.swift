// Redirects through the built tool: only http(s) is followed, never in a loop nor beyond five hops,
// another host or port is followed, and a refused redirect is an error of its own kind, never
// cached. A redirect whose own body never ends is cut off by --timeout.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct RedirectTests {
  /// boom at 0, a clear at 1000, boom again at 2000: the second asks again unless cached.
  static let boomTwice = recording([RecordedKey(0, "boom"), RecordedKey(1_000, ""), RecordedKey(2_000, "boom")])

  static func redirect(to location: String, status: Int = 302) -> Reply {
    Reply(status: status, headers: [HTTPHeader("Location", location)])
  }

  @Test(arguments: [
    "file:///etc/passwd", "ftp://127.0.0.1/results.json", "data:application/json,%7B%22results%22:%5B%5D%7D",
    "gopher://127.0.0.1/1",
  ])
  func aRedirectToAnotherSchemeIsARedirectErrorNeverCached(location: String) async throws {
    try await withStandIn({ _ in Self.redirect(to: location) }) { server in
      let events = try await replayAgainst(server, Self.boomTwice)
      #expect(
        events.map(\.brief) == [
          "search boom", "error boom redirect", "cleared", "search boom", "error boom redirect", "summary",
        ])
      let error = try #require(events.first { $0.type == "error" })
      #expect(error.errorMessage?.contains("is neither http nor https") == true, "\(error.errorMessage ?? "")")
      // Asked twice (not cached), and never anything but the search itself.
      #expect(server.requests.map(\.path) == ["/search", "/search"])
    }
  }

  @Test func aRedirectLoopIsARedirectError() async throws {
    let loop: LoopbackHTTPServer.Handler = { request in
      request.path == "/search" ? Self.redirect(to: "/again") : Self.redirect(to: "/again", status: 307)
    }
    try await withStandIn(loop) { server in
      let events = try await replayAgainst(server, recording([RecordedKey(0, "boom")]))
      #expect(events.map(\.brief) == ["search boom", "error boom redirect", "summary"])
      #expect(events.first { $0.type == "error" }?.errorMessage?.contains("a loop back to") == true)
      #expect(server.requests.map(\.path) == ["/search", "/again"])
    }
  }

  @Test func fiveRedirectsAreFollowedAndASixthIsRefused() async throws {
    // /search → /hop1 → … → /hop<last>, which answers.
    func chain(answeringAt last: Int) -> LoopbackHTTPServer.Handler {
      { request in
        let hop = request.path == "/search" ? 0 : Int(request.path.dropFirst(4)) ?? 0
        return hop == last ? .json(answerBody(for: "boom")) : Self.redirect(to: "/hop\(hop + 1)")
      }
    }
    try await withStandIn(chain(answeringAt: 5)) { server in
      let events = try await replayAgainst(server, recording([RecordedKey(0, "boom")]))
      #expect(events.map(\.brief) == ["search boom", "results boom load", "summary"])
      #expect(events.first { $0.type == "results" }?.categoryTitles == ["music": ["boom 0"]])
      #expect(server.requests.count == 6)
    }
    try await withStandIn(chain(answeringAt: 6)) { server in
      let events = try await replayAgainst(server, recording([RecordedKey(0, "boom")]))
      #expect(events.map(\.brief) == ["search boom", "error boom redirect", "summary"])
      #expect(events.first { $0.type == "error" }?.errorMessage?.contains("more than 5 redirects") == true)
      #expect(server.requests.map(\.path) == ["/search", "/hop1", "/hop2", "/hop3", "/hop4", "/hop5"])
    }
  }

  @Test func aRedirectToAnotherPortIsFollowedWithItsQuery() async throws {
    try await withStandIn({ request in .json(answerBody(for: request.value(of: "term") ?? "?")) }) { elsewhere in
      let moved: LoopbackHTTPServer.Handler = { request in
        Self.redirect(to: elsewhere.url("/moved?\(request.rawQuery)").absoluteString, status: 301)
      }
      try await withStandIn(moved) { server in
        let events = try await replayAgainst(server, recording([RecordedKey(0, "boom")]))
        #expect(events.map(\.brief) == ["search boom", "results boom load", "summary"])
        #expect(events.first { $0.type == "results" }?.categoryTitles == ["music": ["boom 0"]])
        #expect(elsewhere.requests.map(\.path) == ["/moved"])
        #expect(elsewhere.requests.first?.value(of: "media") == "music")
      }
    }
  }

  /// Foundation on Linux reads a redirect's whole body before it asks where to go, outside the
  /// body cap and out of reach of a cancel (its work queue stays busy while the body streams):
  /// the search still ends at --timeout, and the tool still exits when its input ends. The body
  /// never ends, so neither verdict depends on how much of it a machine reads meanwhile.
  @Test func aRedirectWithAnEndlessBodyStillEndsAtTheTimeout() async throws {
    let endless = Reply(status: 302, headers: [HTTPHeader("Location", "/next")], fault: .endlessBody())
    try await withStandIn({ _ in endless }) { server in
      let tool = try RunningProcess(
        try toolBinary(),
        arguments: [
          "--source", server.url("/search").absoluteString, "--format", "jsonl", "--categories", "music",
          "--retries", "0", "--timeout", "1s",
        ])
      tool.write("abba\n")
      await tool.waitForLine(containing: #""seq":2,"#)
      let events = try toolEvents(tool.lines.joined(separator: "\n"))
      #expect(events.map(\.brief) == ["search abba", "error abba timedOut"])
      tool.closeInput()
      #expect(await tool.waitForExit() == 0)
      // The tool has exited, so the connection is closed; the redirect was never followed.
      #expect(await server.waitForOpenConnections(atMost: 0) == 0)
      #expect(server.requests.map(\.path) == ["/search"])
      #expect(server.requests.first?.clientClosedEarly == true)
    }
  }
}
