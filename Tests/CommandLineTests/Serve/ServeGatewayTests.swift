// `stream-search serve --redis` through the built binary: two gateways in front of one real
// worker on a real redis-server, a Python websockets client on each, each answered its own
// session only; `/search` through the workers; a closed socket's clear reaching the worker; Redis
// going away under a gateway (503, a 1013 close, no hang) and coming back; and a gateway that
// stored the shard count first refusing a worker that asks for another.
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct ServeGatewayTests {
  static let needsRedisAndPython = ConditionTrait.enabled(
    if: RedisServer.shouldRun && ServeTests.websockets.isAvailableOrCI,
    Comment(rawValue: RedisServer.shouldRun ? ServeTests.websockets.skipNote : RedisServer.skipNote))

  /// Types `argv[2]` on `ws://argv[1]/ws` and a malformed JSON message, and prints the events
  /// received until the typed word is answered and the bad message refused, as one JSON array.
  static let typist = """
    import asyncio, json, sys, websockets
    bound = int(sys.argv[3])
    async def main():
        async with websockets.connect("ws://" + sys.argv[1] + "/ws", open_timeout=bound) as socket:
            word, text = sys.argv[2], ""
            for key in word:
                text += key
                await socket.send(text)
            await socket.send('{"term": ')
            events = []
            def done():
                return any(e["type"] == "results" and e["term"] == word for e in events) and \\
                    any(e["type"] == "input_error" for e in events)
            try:
                while not done():
                    events.append(json.loads(await asyncio.wait_for(socket.recv(), bound)))
            except websockets.ConnectionClosed as closed:
                print("closed by the server:", closed.rcvd, file=sys.stderr)
        print(json.dumps(events))
    asyncio.run(main())
    """

  @Test(needsRedisAndPython) func twoGatewaysEachAnswerTheirOwnSocketsThroughOneWorker() async throws {
    let redis = try await RedisServer.start()
    defer { redis.stop() }
    let deployment = ["--redis", redis.url, "--redis-prefix", "gw", "--shards", "2"]
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    let worker = try ToolProcess(
      toolBinary(),
      arguments: ["worker"] + deployment + ["--name", "w1", "--catalog", catalog, "--verbose"])
    defer { worker.stop() }
    // Answering from the start: the keystrokes typed below are read as they come.
    #expect(await worker.waitForError(within: hangBound, containing: "acquired shard"))
    let first = try await ServeProcess(deployment)
    let second = try await ServeProcess(deployment)
    #expect(try await Curl.get("http://\(first.address)/healthz") == (200, "ok\n"))

    let python = URL(fileURLWithPath: try ServeTests.websockets.path())
    let bound = String(hangBound.components.seconds)
    async let onFirst = Subprocess.run(python, arguments: ["-c", Self.typist, first.address, "taylor", bound])
    async let onSecond = Subprocess.run(python, arguments: ["-c", Self.typist, second.address, "love story", bound])
    let (taylor, love) = try await (onFirst, onSecond)
    if taylor.stderr != "" || love.stderr != "" {
      let (_, firstErrors) = await first.stop()
      let (_, secondErrors) = await second.stop()
      Issue.record("\(taylor.stderr)\n\(love.stderr)\nfirst: \(firstErrors)\nsecond: \(secondErrors)")
      return
    }
    for (result, word) in [(taylor, "taylor"), (love, "love story")] {
      let events = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]] ?? []
      let terms = Set(events.compactMap { $0["term"] as? String })
      // Only this socket's own terms: every prefix it typed, never the other socket's.
      #expect(!terms.isEmpty && terms.allSatisfy { word.hasPrefix($0) }, "\(word): \(terms)")
      #expect(events.allSatisfy { $0["session"] == nil }, "\(word): a session name was sent")
      #expect(events.compactMap { $0["seq"] as? Int } == events.indices.map { $0 + 1 }, "\(word): seq per connection")
      let refused = events.first { $0["type"] as? String == "input_error" }
      #expect(refused?["line"] as? Int == word.count + 1 && refused?["reason"] as? String == "invalid JSON")
      let answer = events.last { $0["type"] as? String == "results" && $0["term"] as? String == word }
      let titles = ((answer?["categories"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?
        .compactMap { $0["title"] as? String }
      #expect(titles?.contains(word == "taylor" ? "Shake It Off" : "Love Story") == true, "\(word): \(titles ?? [])")
    }

    let found = try await Curl.get("http://\(second.address)/search?q=shake")
    #expect(found.status == 200 && !found.body.contains("\"session\""), "\(found)")
    let object = try JSONSerialization.jsonObject(with: Data(found.body.utf8)) as? [String: Any]
    #expect(object?["type"] as? String == "results" && object?["term"] as? String == "shake")
    #expect(try await Curl.get("http://\(second.address)/search?q=a&limit=1").status == 400)

    // Each closed socket cleared its field: the worker committed a `cleared` for both sessions.
    let cleared = await poll(every: .milliseconds(200)) { () async -> Bool? in
      let events = try? await Subprocess.run(
        toolBinary(), arguments: ["events", "--redis", redis.url, "--redis-prefix", "gw"])
      let lines = events?.stdout.split(separator: "\n") ?? []
      return lines.filter { $0.contains(#""type":"cleared""#) && $0.contains(#""session":"gw-"#) }.count >= 2
        ? true : nil
    }
    #expect(cleared == true)
    let metrics = try await Curl.get("http://\(first.address)/metrics")
    // "taylor" typed key by key, and the clear of the closed socket.
    #expect(metrics.body.contains("\nstream_search_keystrokes_total 7\n"), "\(metrics.body)")
    for server in [first, second] {
      let (exit, rest) = await server.stop(SIGTERM)
      #expect(exit == ChildExit(status: 143, signaled: false))
      #expect(rest.contains("summary:"), "\(rest)")
    }
  }

  @Test(needsRedisAndPython) func redisAwayIsUnhealthyAndRefusesNewSocketsUntilItIsBack() async throws {
    let redis = try await RedisServer.start()
    defer { redis.stop() }
    let server = try await ServeProcess(["--redis", redis.url, "--redis-prefix", "away"])
    let base = "http://\(server.address)"
    #expect(try await Curl.get(base + "/healthz") == (200, "ok\n"))
    redis.kill()
    let unhealthy: Void? = await poll(every: .milliseconds(100)) {
      (try? await Curl.get(base + "/healthz"))?.status == 503 ? () : nil
    }
    #expect(unhealthy != nil)
    let refused = try await Curl.get(base + "/search?q=taylor")
    #expect(refused.status == 503 && refused.body.contains("unreachable"), "\(refused)")
    let script = """
      import asyncio, sys, websockets
      async def main():
          async with websockets.connect("ws://" + sys.argv[1] + "/ws", open_timeout=int(sys.argv[2])) as socket:
              try:
                  await asyncio.wait_for(socket.recv(), int(sys.argv[2]))
              except websockets.ConnectionClosed as closed:
                  print(closed.rcvd.code, closed.rcvd.reason)
      asyncio.run(main())
      """
    let python = URL(fileURLWithPath: try ServeTests.websockets.path())
    let closed = try await Subprocess.run(
      python, arguments: ["-c", script, server.address, String(hangBound.components.seconds)])
    #expect(closed.stdout.hasPrefix("1013 Redis at redis://127.0.0.1:\(redis.port) is unreachable"), "\(closed)")
    try await redis.restart()
    let healthy: Void? = await poll(every: .milliseconds(100)) {
      (try? await Curl.get(base + "/healthz"))?.status == 200 ? () : nil
    }
    #expect(healthy != nil)
    let (exit, _) = await server.stop(SIGINT)
    #expect(exit == ChildExit(status: 130, signaled: false))
  }

  @Test(.enabled(if: RedisServer.shouldRun, Comment(rawValue: RedisServer.skipNote)))
  func aGatewayFirstStoresTheCountAndAWorkerAskingAnotherIsRefused() async throws {
    let redis = try await RedisServer.start()
    defer { redis.stop() }
    // serve names its address only once it has settled the count: the gateway is first here.
    let server = try await ServeProcess(["--redis", redis.url, "--redis-prefix", "first"])
    let worker = try ToolProcess(
      toolBinary(), arguments: ["worker", "--redis", redis.url, "--redis-prefix", "first", "--shards", "2"])
    defer { worker.stop() }
    let exit = await worker.waitForExit(within: hangBound)
    #expect(exit?.status == 64 && exit?.bySignal == false, "\(String(describing: exit))")
    let expected = "Error: --shards 2 differs from the 16 shards 'first' was created with"
    let lines = worker.errorLines
    #expect(lines.count == 1 && lines.first?.hasPrefix(expected) == true, "\(lines)")
    _ = await server.stop()
  }

  @Test func redisUnreachableAtTheStartIsOneErrorLineAndStatus69() async throws {
    // Nothing listens on port 1 of the loopback: the connection is refused at once.
    let port = 1
    let result = try await Subprocess.run(
      toolBinary(), arguments: ["serve", "--listen", "127.0.0.1:0", "--redis", "redis://127.0.0.1:\(port)"])
    #expect(result.status == 69)
    #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains("127.0.0.1:\(port)"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
