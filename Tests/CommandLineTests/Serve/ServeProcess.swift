// The built binary running `serve` on a free loopback port, its address read from the first line
// it writes to stderr, as a script would; stopped with a signal at the end of each test.
import Foundation
import TestSupport

/// `stream-search serve` running as a child.
final class ServeProcess: Sendable {
  let child: ChildProcess
  /// `127.0.0.1:PORT`.
  let address: String
  /// What it wrote to stderr (the first line, and the rest once it has exited).
  let standardError: FileHandle
  let firstLine: String

  struct StartFailure: Error, CustomStringConvertible {
    let description: String
  }

  init(_ arguments: [String] = []) async throws {
    let errors = try ChildPipe.fromChild()
    var command = [try toolBinary().path, "serve", "--listen", "127.0.0.1:0", "--cache-dir", "none"] + arguments
    // Killed with the test process: a server left behind by a crashed test would hold its port
    // and its Redis connection for ever.
    if let setpriv = ToolProcess.setpriv { command = [setpriv, "--pdeathsig", "KILL", "--"] + command }
    child = try ChildProcess(
      command[0], arguments: Array(command.dropFirst()),
      standardInput: .nullDevice, standardOutput: .nullDevice, standardError: errors.forChild)
    errors.closeChildEnd()
    standardError = errors.handle
    let handle = errors.handle
    let line = await resultOf({ Self.readLine(handle) }, within: hangBound) ?? nil
    guard let line, let range = line.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
      child.signal(SIGKILL)
      throw StartFailure(description: "serve named no address on its first stderr line: \(line ?? "(none)")")
    }
    firstLine = line
    address = String(line[range].dropFirst("http://".count))
  }

  /// Bytes up to the first newline, read one at a time so that nothing after it is consumed.
  private static func readLine(_ handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    while true {
      let byte = handle.readData(ofLength: 1)
      guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
      if first == 10 { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(first)
    }
  }

  /// Sends `signal` and returns the exit and the rest of stderr, bounded in time.
  func stop(_ signal: Int32 = SIGTERM) async -> (exit: ChildExit, rest: String) {
    let (exit, _) = await child.signal(signal, waitingAtMost: hangBound)
    let rest = String(decoding: standardError.readDataToEndOfFile(), as: UTF8.self)
    return (exit, rest)
  }
}

/// curl, for plain HTTP requests.
enum Curl {
  static let tool = RequiredTool.executable("curl", installedBy: "curl")

  /// `curl -s -w '\n%{http_code}' URL`: the body and the status.
  static func get(_ url: String) async throws -> (status: Int, body: String) {
    let result = try await Subprocess.run(
      URL(fileURLWithPath: try tool.path()),
      arguments: ["-s", "--max-time", String(hangBound.components.seconds), "-w", "\n%{http_code}", url])
    let text = result.stdout
    guard let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
      return (0, text)
    }
    return (status, String(text[..<newline]))
  }
}
