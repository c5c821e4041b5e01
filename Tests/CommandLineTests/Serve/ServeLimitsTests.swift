// `serve`'s own flags for the WebServer's limits, through the built binary with Python's websockets
// client: `--allow-origin` lets one other site's page open a WebSocket (any other is 403), and
// `--max-connections` answers one connection too many with 503.
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct ServeLimitsTests {
  @Test(.enabled(if: ServeTests.websockets.isAvailableOrCI, Comment(rawValue: ServeTests.websockets.skipNote)))
  func allowOriginAndMaxConnectionsAreTheServersLimits() async throws {
    let server = try await ServeProcess(["--allow-origin", "http://shop.test", "--max-connections", "2"])
    let script = """
      import asyncio, sys, websockets
      bound = int(sys.argv[2])
      uri = "ws://" + sys.argv[1] + "/ws"
      async def status(origin):
          try:
              async with websockets.connect(uri, origin=origin, open_timeout=bound):
                  return 101
          except websockets.InvalidStatusCode as refused:
              return refused.status_code
      async def main():
          print(await status("http://shop.test"), await status("http://evil.test"))
          async with websockets.connect(uri, open_timeout=bound), websockets.connect(uri, open_timeout=bound):
              print(await status(None))
      asyncio.run(main())
      """
    let python = URL(fileURLWithPath: try ServeTests.websockets.path())
    let result = try await Subprocess.run(
      python, arguments: ["-c", script, server.address, String(hangBound.components.seconds)])
    #expect(result.stderr == "")
    #expect(result.stdout == "101 403\n503\n")
    let (exit, _) = await server.stop(SIGTERM)
    #expect(exit == ChildExit(status: 143, signaled: false))
  }
}
