// A headless Chromium driven through chromedriver's W3C WebDriver HTTP API, for the search page's
// browser tests: no Selenium, only the few endpoints the tests use. chromedriver listens on a port
// it picks (`--port=0`) and names on its first lines; commands go through curl (as the other serve
// tests' requests do). Each session is deleted before the driver is stopped, and the browser's
// process is killed if it outlives them, so that no browser outlives its test.
import Foundation
import TestSupport

/// chromedriver running as a child, with one browser session open.
final class WebDriver: Sendable {
  static let chromium = RequiredTool.executable("chromium", installedBy: "chromium")
  static let chromedriver = RequiredTool.executable("chromedriver", installedBy: "chromium-driver")

  /// Why a call to the driver failed: its error, or no usable answer.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let driver: ChildProcess
  private let base: String
  private let session: String
  /// The driver's and the browser's TMPDIR and profile, removed by ``quit()``.
  private let scratch: URL
  /// The browser's process, as the driver reports it.
  private let browserProcess: pid_t?

  /// Starts chromedriver and a headless Chromium of `width`×`height` CSS pixels.
  init(width: Int = 900, height: Int = 640) async throws {
    // Chromium leaves a singleton-socket folder in TMPDIR at each start: a folder of the test's
    // own, removed at the end, keeps /tmp clean.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webdriver-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    self.scratch = scratch
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = scratch.path
    let output = try ChildPipe.fromChild()
    do {
      driver = try ChildProcess(
        try Self.chromedriver.path(), arguments: ["--port=0"], environment: environment, standardInput: .nullDevice,
        standardOutput: output.forChild, standardError: .nullDevice)
    } catch {
      output.closeChildEnd()
      try? FileManager.default.removeItem(at: scratch)
      throw error
    }
    output.closeChildEnd()
    let handle = output.handle
    let port = await resultOf({ Self.announcedPort(handle) }, within: hangBound) ?? nil
    guard let port else {
      _ = await driver.signal(SIGKILL, waitingAtMost: hangBound)
      try? FileManager.default.removeItem(at: scratch)
      throw Failure(description: "chromedriver named no port")
    }
    base = "http://127.0.0.1:\(port)"
    let options: [String: Any] = [
      "binary": try Self.chromium.path(),
      "args": [
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=\(width),\(height)", "--hide-scrollbars",
        "--user-data-dir=" + scratch.appendingPathComponent("profile").path,
      ],
    ]
    let capabilities: [String: Any] = [
      "alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": ["browser": "ALL"]]
    ]
    do {
      let created = try await Self.call("POST", base + "/session", ["capabilities": capabilities])
      guard let id = (created as? [String: Any])?["sessionId"] as? String else {
        throw Failure(description: "no session id in \(String(describing: created))")
      }
      session = id
      let granted = (created as? [String: Any])?["capabilities"] as? [String: Any]
      browserProcess = (granted?["goog:processID"] as? Int).map { pid_t($0) }
    } catch {
      _ = await driver.signal(SIGTERM, waitingAtMost: hangBound)
      try? FileManager.default.removeItem(at: scratch)
      throw error
    }
    let bound = Self.milliseconds(hangBound)
    do {
      _ = try await send("POST", "/timeouts", ["script": bound, "pageLoad": bound])
    } catch {
      await quit()
      throw error
    }
  }

  /// The port in chromedriver's "started successfully on port N." line.
  private static func announcedPort(_ handle: FileHandle) -> Int? {
    var text = ""
    while true {
      let data = handle.availableData
      if data.isEmpty { return nil }
      text += String(decoding: data, as: UTF8.self)
      if let range = text.range(of: #"on port [0-9]+\."#, options: .regularExpression),
        text[range].contains(where: \.isNumber), text[..<range.lowerBound].contains("successfully")
      {
        return Int(text[range].dropFirst("on port ".count).dropLast())
      }
    }
  }

  /// Ends the browser session, then the driver.
  func quit() async {
    _ = try? await send("DELETE", "")
    _ = await driver.signal(SIGTERM, waitingAtMost: hangBound)
    // The browser is the driver's child, not ours: a session that could not be deleted leaves it
    // running, orphaned.
    if let browserProcess, kill(browserProcess, 0) == 0 { kill(browserProcess, SIGKILL) }
    try? FileManager.default.removeItem(at: scratch)
  }

  /// Opens `url` and returns once it has loaded.
  func open(_ url: String) async throws {
    _ = try await send("POST", "/url", ["url": url])
  }

  /// The value of `script` (a function body; `arguments` are its arguments).
  @discardableResult
  func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
    try await send("POST", "/execute/sync", ["script": script, "args": arguments])
  }

  /// Runs `condition` (an expression) in the page until it is truthy and returns its value;
  /// a hang fails after the script timeout (the hang bound).
  func waitUntil(_ condition: String) async throws -> Any? {
    let script = """
      const done = arguments[arguments.length - 1];
      const check = () => { let value; try { value = (\(condition)); } catch (e) { value = null; }
        if (value) done(value); else setTimeout(check, 10); };
      check();
      """
    return try await send("POST", "/execute/async", ["script": script, "args": []])
  }

  /// Presses `keys` one after another (text characters, or WebDriver key codes such as
  /// ``BrowserKey/down``), pausing `pause` between them; `holding` is held down throughout.
  func press(_ keys: [String], pause: Duration = .zero, holding: String? = nil) async throws {
    var actions: [[String: Any]] = []
    if let holding { actions.append(["type": "keyDown", "value": holding]) }
    for (index, key) in keys.enumerated() {
      if index > 0 && pause > .zero {
        actions.append(["type": "pause", "duration": Self.milliseconds(pause)])
      }
      actions.append(["type": "keyDown", "value": key])
      actions.append(["type": "keyUp", "value": key])
    }
    if let holding { actions.append(["type": "keyUp", "value": holding]) }
    _ = try await send("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    _ = try await send("DELETE", "/actions")
  }

  private static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }

  /// Types `text` one character at a time.
  func type(_ text: String, pause: Duration = .zero) async throws {
    try await press(text.map(String.init), pause: pause)
  }

  /// A PNG of the window.
  func screenshot() async throws -> Data {
    guard let text = try await send("GET", "/screenshot") as? String, let data = Data(base64Encoded: text) else {
      throw Failure(description: "the screenshot is not base64")
    }
    return data
  }

  /// The browser's console messages since the last call (level and text).
  func consoleMessages() async throws -> [(level: String, message: String)] {
    let entries = try await send("POST", "/se/log", ["type": "browser"]) as? [[String: Any]] ?? []
    return entries.map { (($0["level"] as? String) ?? "", ($0["message"] as? String) ?? "") }
  }

  private func send(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
    try await Self.call(method, base + "/session/" + session + path, body)
  }

  /// One WebDriver command through curl: its `value`, or its error as a ``Failure``.
  private static func call(_ method: String, _ url: String, _ body: [String: Any]?) async throws -> Any? {
    var arguments = ["-s", "--max-time", String(hangBound.components.seconds + 60), "-X", method, url]
    if let body {
      arguments += ["-H", "Content-Type: application/json", "--data-binary", "@-"]
      let input = try JSONSerialization.data(withJSONObject: body)
      return try decode(
        try await Subprocess.run(URL(fileURLWithPath: try Curl.tool.path()), arguments: arguments, input: input),
        method, url)
    }
    return try decode(
      try await Subprocess.run(URL(fileURLWithPath: try Curl.tool.path()), arguments: arguments), method, url)
  }

  private static func decode(_ result: SubprocessResult, _ method: String, _ url: String) throws -> Any? {
    guard result.status == 0,
      let object = try? JSONSerialization.jsonObject(with: result.standardOutput, options: .fragmentsAllowed)
        as? [String: Any]
    else { throw Failure(description: "\(method) \(url): curl exit \(result.status), \(result.stdout.prefix(300))") }
    let value = object["value"]
    if let error = (value as? [String: Any])?["error"] as? String {
      // One line: chromedriver's message goes on with the browser's version on lines of its own.
      let message = ((value as? [String: Any])?["message"] as? String ?? "").split(separator: "\n").first ?? ""
      throw Failure(description: "\(method) \(url): \(error): \(message.prefix(300))")
    }
    if value is NSNull { return nil }
    return value
  }
}

/// WebDriver's codes for keys that are not text.
enum BrowserKey {
  static let up = "\u{E013}"
  static let down = "\u{E015}"
  static let enter = "\u{E007}"
  static let escape = "\u{E00C}"
  static let control = "\u{E009}"
  static let backspace = "\u{E003}"
}
