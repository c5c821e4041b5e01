// WebSocket clients written by someone else: Python's `websockets` (Debian's python3-websockets),
// run as a child with a script that prints one line of figures, bounded in time.
import Foundation
import TestSupport

enum PythonClients {
  static let websockets = RequiredTool.pythonModule("websockets", installedBy: "python3-websockets")

  /// `clients` connections at once to `url`, each sending `messages` texts and checking each echo,
  /// then closing with 1000. Prints "ok", or the first failure.
  static let echoScript = """
    import asyncio, sys, websockets
    url, clients, messages, origin = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] or None
    bound = int(sys.argv[5])
    async def one(index):
        async with websockets.connect(url, origin=origin, open_timeout=bound, close_timeout=bound,
                                      ping_interval=None, max_size=2**20) as socket:
            for number in range(messages):
                text = f"client {index} message {number} é"
                await socket.send(text)
                echo = await socket.recv()
                if echo != text:
                    raise Exception(f"client {index}: sent {text!r}, got {echo!r}")
            await socket.close(1000)
            if socket.close_code != 1000:
                raise Exception(f"client {index}: closed with {socket.close_code}")
    async def main():
        results = await asyncio.gather(*(one(index) for index in range(clients)), return_exceptions=True)
        failures = [result for result in results if isinstance(result, BaseException)]
        print("ok" if not failures else f"{len(failures)} failed: {failures[0]!r}")
    asyncio.run(main())
    """

  /// Runs the echo script; its one line.
  static func echo(url: String, clients: Int, messages: Int, origin: String = "") async throws -> String {
    let python = URL(fileURLWithPath: try websockets.path())
    let arguments = [
      "-c", echoScript, url, String(clients), String(messages), origin, String(hangBound.components.seconds),
    ]
    let result = await resultOf({ try? await Subprocess.run(python, arguments: arguments) }, within: hangBound)
    guard let result = result ?? nil else { throw ClientSocketError(description: "python did not end") }
    return (result.stdout + result.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
