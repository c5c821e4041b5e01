// A private nginx on a free loopback port, for the web server's proxy tests and the benchmark's
// yardstick: one process (no master, no user switch), every path under a temporary directory,
// so it runs as any user beside a system nginx, and leaves nothing behind once stopped.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// nginx with a `server` block of the caller's, listening on 127.0.0.1 at ``port``.
///
/// ```swift
/// let nginx = try await NginxServer.start(
///   executable: try RequiredTool.nginx.path(),
///   serverBody: "location / { proxy_pass http://127.0.0.1:\(port); }")
/// defer { nginx.stop() }
/// // http://127.0.0.1:\(nginx.port)/
/// ```
public final class NginxServer: Sendable {
  /// nginx, found in /usr/sbin too (Debian puts it there).
  public static let tool = RequiredTool.executable("nginx", installedBy: "nginx")

  /// The port it listens on.
  public let port: UInt16
  /// Its prefix directory (configuration, logs, temporary files).
  public let directory: URL
  private let child: ChildProcess

  private init(port: UInt16, directory: URL, child: ChildProcess) {
    self.port = port
    self.directory = directory
    self.child = child
  }

  /// Starts nginx with `serverBody` inside its `server { listen …; }` block and `httpExtra` in
  /// its `http` block, and returns once it answers on its port (within 20 s, else throws).
  public static func start(executable: String, serverBody: String, httpExtra: String = "") async throws -> NginxServer {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let port = try freePort()
    let path = directory.path
    let configuration = """
      daemon off;
      master_process off;
      worker_processes 1;
      pid \(path)/nginx.pid;
      error_log \(path)/error.log warn;
      events { worker_connections 4096; }
      http {
        access_log off;
        client_body_temp_path \(path)/body;
        proxy_temp_path \(path)/proxy;
        fastcgi_temp_path \(path)/fastcgi;
        uwsgi_temp_path \(path)/uwsgi;
        scgi_temp_path \(path)/scgi;
        \(httpExtra)
        server {
          listen 127.0.0.1:\(port) reuseport;
          \(serverBody)
        }
      }

      """
    try configuration.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
    let child = try ChildProcess(
      executable, arguments: ["-p", path, "-e", "\(path)/error.log", "-c", "\(path)/nginx.conf"],
      standardInput: .nullDevice, standardOutput: .nullDevice, standardError: .nullDevice)
    let server = NginxServer(port: port, directory: directory, child: child)
    let deadline = ContinuousClock.now.advanced(by: hangBound)
    while ContinuousClock.now < deadline {
      if child.exit != nil { break }
      if canConnect(port) { return server }
      try await Task.sleep(for: .milliseconds(20))
    }
    let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    server.stop()
    throw MissingToolError(message: "nginx did not start on port \(port): \(log)")
  }

  /// Stops nginx (SIGTERM, then SIGKILL after 10 s) and removes its directory.
  public func stop() {
    if child.exit == nil {
      child.signal(SIGTERM)
      if child.waitForExit(atMost: .seconds(10)) == nil {
        child.signal(SIGKILL)
        _ = child.waitForExit(atMost: .seconds(10))
      }
    }
    try? FileManager.default.removeItem(at: directory)
  }

  /// A port nobody listens on now (bound, read, released: another may take it meanwhile, rarely).
  static func freePort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw SocketError(call: "socket", code: errno) }
    defer { close(descriptor) }
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw SocketError(call: "bind", code: errno) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else { throw SocketError(call: "getsockname", code: errno) }
    return UInt16(bigEndian: address.sin_port)
  }

  private static func canConnect(_ port: UInt16) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    } == 0
  }

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }
}
