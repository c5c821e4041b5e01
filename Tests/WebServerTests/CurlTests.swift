// curl, a client the server did not write: keep-alive across requests, 404 and 431 as curl sees
// them.
import Foundation
import TestSupport
import Testing
import WebServer

@Suite struct CurlTests {
  static let curl = RequiredTool.executable("curl", installedBy: "curl")

  /// Runs curl with `arguments`, bounded; its standard output.
  static func run(_ arguments: [String]) async throws -> String {
    let executable = URL(fileURLWithPath: try curl.path())
    let result = await resultOf(
      {
        try? await Subprocess.run(
          executable, arguments: ["--silent", "--max-time", String(hangBound.components.seconds)] + arguments)
      },
      within: hangBound)
    guard let result = result ?? nil else { throw ClientSocketError(description: "curl did not end") }
    return result.stdout
  }

  @Test(.enabled(if: curl.isAvailableOrCI, Comment(rawValue: curl.skipNote)))
  func keepsOneConnectionForSeveralRequests() async throws {
    try await withServer { server in
      let base = "http://127.0.0.1:\(server.boundPort)"
      // Three URLs in one curl: one connection when the server keeps it alive.
      let output = try await Self.run([
        "--write-out", "%{http_code} %{num_connects}\\n", "\(base)/hello", "\(base)/search?q=a%20b", "\(base)/hello",
      ])
      #expect(output == "hello\n200 1\n" + #"{"q":"a b"}"# + "200 0\nhello\n200 0\n")
    }
  }

  @Test(.enabled(if: curl.isAvailableOrCI, Comment(rawValue: curl.skipNote)))
  func unknownPathsAre404AndHugeHeadsAre431() async throws {
    try await withServer { server in
      let base = "http://127.0.0.1:\(server.boundPort)"
      let missing = try await Self.run(["--output", "/dev/null", "--write-out", "%{http_code}", "\(base)/nothing"])
      let traversal = try await Self.run([
        "--path-as-is", "--output", "/dev/null", "--write-out", "%{http_code}", "\(base)/../../etc/passwd",
      ])
      let huge = try await Self.run([
        "--output", "/dev/null", "--write-out", "%{http_code}", "--header",
        "X-Filler: \(String(repeating: "a", count: 20_000))",
        "\(base)/hello",
      ])
      #expect([missing, traversal, huge] == ["404", "404", "431"])
    }
  }
}
