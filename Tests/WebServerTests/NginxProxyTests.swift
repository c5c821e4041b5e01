// nginx in front, with the configuration docs/webserver.md gives: plain requests over kept-alive
// upstream connections, and WebSockets passed through with the page's Origin still accepted.
import Foundation
import TestSupport
import Testing
import WebServer

@Suite struct NginxProxyTests {
  static let nginx = NginxServer.tool
  static let ready = nginx.isAvailableOrCI && PythonClients.websockets.isAvailableOrCI && CurlTests.curl.isAvailableOrCI

  /// The `location` and `map` of docs/webserver.md, pointed at `port`.
  static func proxy(to port: UInt16) -> (server: String, http: String) {
    (
      """
      location / {
        proxy_pass http://stream_search;
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 1h;
        proxy_buffering off;
      }
      """,
      """
      upstream stream_search {
        server 127.0.0.1:\(port);
        keepalive 32;
        keepalive_timeout 5s;
      }
      map $http_upgrade $connection_upgrade {
        default upgrade;
        '' '';
      }
      """
    )
  }

  @Test(.enabled(if: ready, Comment(rawValue: "\(nginx.skipNote); or python3-websockets or curl is missing")))
  func requestsAndWebSocketsPassThroughNginx() async throws {
    try await withServer { server in
      let config = Self.proxy(to: server.boundPort)
      let proxy = try await NginxServer.start(
        executable: try Self.nginx.path(), serverBody: config.server, httpExtra: config.http)
      defer { proxy.stop() }
      let base = "http://127.0.0.1:\(proxy.port)"
      let plain = try await CurlTests.run(["--write-out", " %{http_code}", "\(base)/hello", "\(base)/nothing"])
      #expect(plain == "hello\n 200not found\n 404")
      let sockets = try await PythonClients.echo(
        url: "ws://127.0.0.1:\(proxy.port)/ws", clients: 50, messages: 3, origin: "http://127.0.0.1:\(proxy.port)")
      #expect(sockets == "ok")
      let foreign = try await PythonClients.echo(
        url: "ws://127.0.0.1:\(proxy.port)/ws", clients: 1, messages: 1, origin: "http://evil.example")
      #expect(foreign.contains("403"), "\(foreign)")
    }
  }
}
