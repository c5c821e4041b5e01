// The search page in a real browser: headless Chromium, driven through chromedriver's WebDriver
// API, against the built `serve` (in-process, and as a gateway in front of two workers on a real
// redis-server). Keys are typed as a person types them; every wait is bounded by
// the hang bound only, and no verdict depends on how fast the machine answers: what the page went
// through is recorded in the page itself (a MutationObserver) and judged afterwards.
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct BrowserTests {
  static let tools = [WebDriver.chromium, WebDriver.chromedriver]
  static let ready = tools.allSatisfy(\.isAvailableOrCI)
  static let skipNote = tools.first { !$0.isAvailable }?.skipNote ?? ""

  @Test(.enabled(if: ready, Comment(rawValue: skipNote)))
  func typingMovingChoosingAndClearingInTheSearchPage() async throws {
    let server = try await ServeProcess()
    let browser: WebDriver
    do {
      browser = try await WebDriver()
    } catch {
      _ = await server.stop()
      throw error
    }
    do {
      try await searchPage(browser, server)
      try await connectionLost(browser, server)
    } catch {
      await browser.quit()
      _ = await server.stop()
      throw error
    }
    await browser.quit()
  }

  @Test(.enabled(if: ready && RedisServer.shouldRun, Comment(rawValue: ready ? RedisServer.skipNote : skipNote)))
  func theSamePageOverRedisWithTwoWorkers() async throws {
    let redis = try await RedisServer.start()
    defer { redis.stop() }
    // The gateway is given the workers' `--shards` too: it starts with them, and whichever of
    // the three stores the count first, the others agree (without it, a gateway first would store
    // the default, and both workers would refuse to run).
    let deployment = ["--redis", redis.url, "--redis-prefix", "page", "--shards", "2"]
    let workers = try ["w1", "w2"].map { name in
      try ToolProcess(toolBinary(), arguments: ["worker"] + deployment + ["--shards", "2", "--name", name])
    }
    defer { for worker in workers { worker.stop() } }
    let server = try await ServeProcess(deployment)
    let browser: WebDriver
    do {
      browser = try await WebDriver()
    } catch {
      _ = await server.stop()
      throw error
    }
    do {
      try await searchPage(browser, server)
    } catch {
      await browser.quit()
      _ = await server.stop()
      for worker in workers where worker.hasExited { Issue.record("a worker ended: \(worker.errorLines)") }
      throw error
    }
    await browser.quit()
    _ = await server.stop()
    for worker in workers { #expect(!worker.hasExited, "a worker ended: \(worker.errorLines)") }
  }

  @Test(.enabled(if: ready, Comment(rawValue: skipNote)))
  func aFailedSearchIsShownAsAnError() async throws {
    // A source nobody listens on: every search fails, as it would with the network down.
    let server = try await ServeProcess([
      "--source", "http://127.0.0.1:\(try LoopbackHTTPServer.closedPort())", "--categories", "music",
    ])
    let browser: WebDriver
    do {
      browser = try await WebDriver()
    } catch {
      _ = await server.stop()
      throw error
    }
    do {
      try await browser.open("http://\(server.address)/")
      try await browser.type("queen")
      try await PageProbe.wait(browser, #"document.getElementById("status").className === "error""#)
      let page = try await PageProbe.state(browser)
      #expect(page.status.hasPrefix("Search for \u{201C}queen\u{201D} failed: "), "\(page.status)")
      #expect(page.groups.isEmpty && page.expanded == "false")
    } catch {
      await browser.quit()
      _ = await server.stop()
      throw error
    }
    await browser.quit()
    _ = await server.stop()
  }

  private func searchPage(_ browser: WebDriver, _ server: ServeProcess) async throws {
    try await browser.open("http://\(server.address)/")
    try await browser.run(PageProbe.recorder)
    // One key every 80 ms, as a person types: results come for the whole term, grouped.
    try await browser.type("bohemian rapsody", pause: .milliseconds(80))
    try await PageProbe.wait(browser, PageProbe.settled("bohemian rapsody"))
    var page = try await PageProbe.state(browser)
    #expect(page.groups.first?.label == "music")
    #expect(page.groups.first?.options.first == "Bohemian Rhapsody")
    #expect(page.expanded == "true" && page.active == nil && page.status.contains("results"))
    // While it waited, the page said so, before the answer came.
    let searching = page.seen.firstIndex { $0.busy && $0.status.hasPrefix("Searching") }
    let answered = page.seen.firstIndex { $0.term == "bohemian rapsody" }
    #expect(searching != nil && answered != nil && searching! < answered!, "\(page.seen)")
    // Up and Down move the active option; the field names it.
    for (key, expected) in [(BrowserKey.down, "option-0"), (BrowserKey.down, "option-1"), (BrowserKey.up, "option-0")] {
      try await browser.press([key])
      page = try await PageProbe.state(browser)
      #expect(page.active == expected && page.selected == [expected])
    }
    try await keepScreenshot(browser)
    try await browser.press([BrowserKey.enter])
    try await PageProbe.wait(browser, #"document.getElementById("picked").textContent.includes("Bohemian Rhapsody")"#)
    // A second term over the first, typed as fast as the driver can: the list ends on it, and
    // once anything of it was shown nothing of the first term came back.
    try await browser.press(["a"], holding: BrowserKey.control)
    try await browser.type("queen")
    try await PageProbe.wait(browser, PageProbe.settled("queen"))
    page = try await PageProbe.state(browser)
    #expect(page.value == "queen" && page.term == "queen" && !page.groups.isEmpty)
    let shown = page.seen.map(\.term).filter { !$0.isEmpty }
    let typed = PageProbe.prefixes("bohemian rapsody") + PageProbe.prefixes("queen")
    let order = shown.map { term in typed.lastIndex(of: term) ?? -1 }
    #expect(!order.contains(-1) && order == order.sorted(), "shown in this order: \(shown)")
    // The pick went to the server before the second term's keys, on the same socket: counted.
    let metrics = try await Curl.get("http://\(server.address)/metrics")
    #expect(metrics.body.contains("\nstream_search_picks_total 1\n"))
    // Escape clears the field and the list.
    try await browser.press([BrowserKey.escape])
    page = try await PageProbe.state(browser)
    #expect(page.value == "" && page.groups.isEmpty && page.expanded == "false" && page.active == nil)
    #expect(page.status == "")
    let errors = try await browser.consoleMessages().filter { $0.level == "SEVERE" }
    #expect(errors.isEmpty, "the console said: \(errors)")
  }

  /// The server goes away: the page says so instead of showing a dead field.
  private func connectionLost(_ browser: WebDriver, _ server: ServeProcess) async throws {
    try await browser.type("abba")
    try await PageProbe.wait(browser, PageProbe.settled("abba"))
    let (exit, _) = await server.stop(SIGTERM)
    #expect(exit == ChildExit(status: 143, signaled: false))
    try await PageProbe.wait(browser, #"document.getElementById("status").textContent.includes("Connection lost")"#)
    let page = try await PageProbe.state(browser)
    #expect(page.statusKind == "error" && page.stale && page.term == "abba")
  }

  /// A screenshot of the page with results and an active option, checked to be a PNG of the
  /// window's size; kept where `STREAM_SEARCH_SCREENSHOT` says (the README's image is made so).
  private func keepScreenshot(_ browser: WebDriver) async throws {
    let png = try await browser.screenshot()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("serve-page.png")
    try png.write(to: file)
    let size = PNGHeader(try Data(contentsOf: file))
    #expect(size != nil && size!.width >= 400 && size!.height >= 300 && png.count > 4096, "\(String(describing: size))")
    if let keep = ProcessInfo.processInfo.environment["STREAM_SEARCH_SCREENSHOT"], !keep.isEmpty {
      try png.write(to: URL(fileURLWithPath: keep))
    }
  }
}

/// The width and height a PNG's header declares, when the bytes are a PNG (signature, IHDR first,
/// IEND last).
struct PNGHeader: CustomStringConvertible {
  let width: Int
  let height: Int

  init?(_ data: Data) {
    let bytes = [UInt8](data)
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count > 45, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8),
      Array(bytes[(bytes.count - 8)..<(bytes.count - 4)]) == Array("IEND".utf8)
    else { return nil }
    let number = { (offset: Int) in bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
    width = number(16)
    height = number(20)
  }

  var description: String { "\(width)×\(height)" }
}
