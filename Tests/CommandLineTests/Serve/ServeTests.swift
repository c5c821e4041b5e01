// `stream-search serve` through the built binary: the page, /search, /healthz and /metrics with
// curl, a WebSocket session with Python's websockets client, a signal's stop and a bind failure.
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct ServeTests {
  static let websockets = RequiredTool.pythonModule("websockets", installedBy: "python3-websockets")

  @Test(.enabled(if: Curl.tool.isAvailableOrCI, Comment(rawValue: Curl.tool.skipNote)))
  func servesThePageSearchHealthAndMetrics() async throws {
    let server = try await ServeProcess()
    let base = "http://\(server.address)"
    let found = try await Curl.get(base + "/search?q=bohemian%20rapsody&categories=music&limit=1")
    #expect(found.status == 200)
    let object = try JSONSerialization.jsonObject(with: Data(found.body.utf8)) as? [String: Any]
    #expect(object?["type"] as? String == "results" && object?["term"] as? String == "bohemian rapsody")
    let categories = object?["categories"] as? [[String: Any]]
    #expect(categories?.map { $0["category"] as? String } == ["music"])
    let first = (categories?.first?["items"] as? [[String: Any]])?.first
    #expect(first?["title"] as? String == "Bohemian Rhapsody")
    for (query, parameter) in [("q=", "q"), ("q=a&limit=0", "limit"), ("q=a&categories=books", "categories")] {
      let refused = try await Curl.get(base + "/search?" + query)
      #expect(refused.status == 400 && !refused.body.contains("\n"))
      #expect(refused.body.contains(#""parameter":"\#(parameter)""#), "\(query): \(refused.body)")
    }
    #expect(try await Curl.get(base + "/healthz") == (200, "ok\n"))
    let page = try await Curl.get(base + "/")
    #expect(page.status == 200 && page.body.contains(#"role="combobox""#) && page.body.contains(#"role="listbox""#))
    #expect(page.body.contains("aria-activedescendant") && page.body.contains("<script nonce="))
    #expect(try await Curl.get(base + "/../etc/passwd").status == 404)
    let metrics = try await Curl.get(base + "/metrics")
    #expect(metrics.status == 200 && metrics.body.contains("\nstream_search_searches_total 1\n"))
    #expect(metrics.body.contains("\nstream_search_connections 0\n"))
    let (exit, rest) = await server.stop(SIGTERM)
    #expect(exit == ChildExit(status: 143, signaled: false))
    #expect(rest.contains("summary"))
  }

  @Test(.enabled(if: websockets.isAvailableOrCI, Comment(rawValue: websockets.skipNote)))
  func aWebSocketIsOneSessionWhoseLatestTermIsAnswered() async throws {
    let server = try await ServeProcess()
    let script = """
      import asyncio, json, sys, websockets
      bound = int(sys.argv[2])
      async def main():
          async with websockets.connect("ws://" + sys.argv[1] + "/ws", open_timeout=bound) as socket:
              text = ""
              for key in "queen":
                  text += key
                  await socket.send(text)
              events = []
              while not any(e["type"] == "results" and e["term"] == "queen" for e in events):
                  events.append(json.loads(await asyncio.wait_for(socket.recv(), bound)))
              await socket.send(json.dumps({"term": "abba"}))
              while not any(e["type"] == "results" and e["term"] == "abba" for e in events):
                  events.append(json.loads(await asyncio.wait_for(socket.recv(), bound)))
              await socket.send(json.dumps({"pick": {"id": 1}}))
              await socket.send("bohemian")
              await socket.close()
          print(" ".join(e["term"] for e in events if e["type"] == "results"))
          print(all("session" not in e and "seq" in e and "at_ms" in e for e in events))
      asyncio.run(main())
      """
    let python = URL(fileURLWithPath: try Self.websockets.path())
    let result = try await Subprocess.run(
      python, arguments: ["-c", script, server.address, String(hangBound.components.seconds)])
    #expect(result.stderr == "")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // However the keys were spaced, answers come only for what was typed, the latest term last
    // (how many searches the debounce lets through is a matter of timing, tested in virtual time).
    let answered = lines.first?.split(separator: " ").map(String.init) ?? []
    #expect(answered.suffix(2) == ["queen", "abba"])
    #expect(answered.allSatisfy { ["q", "qu", "que", "quee", "queen", "abba"].contains($0) })
    #expect(lines.last == "True")
    let metrics = try await Curl.get("http://\(server.address)/metrics")
    #expect(metrics.body.contains("\nstream_search_picks_total 1\n"))
    #expect(metrics.body.contains("\nstream_search_keystrokes_total 8\n"))
    let (exit, _) = await server.stop(SIGINT)
    #expect(exit == ChildExit(status: 130, signaled: false))
  }

  @Test(.enabled(if: websockets.isAvailableOrCI, Comment(rawValue: websockets.skipNote)))
  func aMalformedMessageIsAnInputErrorAndTheSessionGoesOn() async throws {
    let server = try await ServeProcess()
    let script = """
      import asyncio, json, sys, websockets
      bound = int(sys.argv[2])
      async def main():
          async with websockets.connect("ws://" + sys.argv[1] + "/ws", open_timeout=bound) as socket:
              for message in ['{"term": ', '{"size": 1}', "queen"]:
                  await socket.send(message)
              events = []
              while not any(e["type"] == "results" and e["term"] == "queen" for e in events):
                  events.append(json.loads(await asyncio.wait_for(socket.recv(), bound)))
          print(json.dumps([[e["line"], e["reason"]] for e in events if e["type"] == "input_error"]))
      asyncio.run(main())
      """
    let python = URL(fileURLWithPath: try Self.websockets.path())
    let result = try await Subprocess.run(
      python, arguments: ["-c", script, server.address, String(hangBound.components.seconds)])
    #expect(result.stderr == "")
    let refused = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[Any]] ?? []
    #expect(refused.map { $0.first as? Int } == [1, 2], "\(result.stdout)")
    #expect(refused.first?.last as? String == "invalid JSON")
    #expect((refused.last?.last as? String)?.contains("expected") == true)
    let (exit, rest) = await server.stop(SIGTERM)
    #expect(exit == ChildExit(status: 143, signaled: false))
    #expect(rest.contains("(2 bad)"), "\(rest)")
  }

  @Test func anAddressInUseIsOneErrorLineAndStatus69() async throws {
    let first = try await ServeProcess()
    let second = try await Subprocess.run(
      try toolBinary(), arguments: ["serve", "--listen", first.address, "--cache-dir", "none"])
    #expect(second.status == 69)
    #expect(second.stderr == "Error: cannot listen on \(first.address): address already in use\n")
    _ = await first.stop()
  }
}
