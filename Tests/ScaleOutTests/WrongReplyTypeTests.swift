// A server (or a misconfigured proxy) that answers like Redis at the start, then with replies of
// a type the command never gives: an integer for `XADD`'s entry id, a status for the leases'
// `MGET`. Each command ends with one line naming the command and the reply, never with a
// success that stored nothing.
import Foundation
import RESP
import TestSupport
import Testing

@Suite struct WrongReplyTypeTests {
  @Test func publishTakesNoIntegerForAnEntryId() async throws {
    let server = try FakeRedisServer { command in
      command.first == "XADD" ? .reply(":1\r\n") : FakeRedisServer.configuration(command, shards: 4)
    }
    defer { server.stop() }
    let publisher = try ToolProcess(
      toolBinary(), arguments: ["publish", "--redis", server.url], input: Data("a\nb\nc\n".utf8))
    defer { publisher.stop() }
    #expect(await publisher.waitForExit(within: Deployment.patience)?.status == 69)
    // How many of the three lines it had read when the first reply came ("0 of N") is a race
    // between its reader and the server; what it stored and where to resume are not.
    let said = publisher.errorLines
    let pattern =
      #"^Error: cannot use Redis at \S+: not a valid reply: XADD answered an integer \(1\), where it "#
      + #"answers a bulk string or null; 0 of [123] keystrokes stored; resume from input line 1$"#
    #expect(said.count == 1 && said[0].contains(server.url), "\(said)")
    #expect(said.first?.range(of: pattern, options: .regularExpression) != nil, "\(said)")
  }

  @Test func aWorkerTakesNoStatusForTheLeases() async throws {
    let server = try FakeRedisServer { command in
      command.first == "MGET" ? .reply("+OK\r\n") : FakeRedisServer.configuration(command, shards: 4)
    }
    defer { server.stop() }
    let catalog = SharedFixtures.projectFolder("interactive-catalog.json").path
    // Bounded: a worker that took the status for leases would run on, holding nothing, for ever.
    let worker = try ToolProcess(toolBinary(), arguments: ["worker", "--redis", server.url, "--catalog", catalog])
    defer { worker.stop() }
    #expect(await worker.waitForExit(within: Deployment.patience)?.status == 69)
    #expect(
      worker.errorLines
        == [
          "Error: cannot use Redis at \(server.url): not a valid reply: MGET answered a status (OK), where it "
            + "answers an array"
        ])
  }
}
