// `stream-search serve` as the benchmark's child: on a free loopback port, its address read from
// its first stderr line as a script would, the rest of stderr drained on a thread (a full pipe
// would stall the server's log), its peak RSS read from /proc, stopped with SIGTERM.
import Foundation
import TestSupport

/// A running `serve`.
struct ServeChild: Sendable {
  let child: ChildProcess
  let port: UInt16

  static func start(_ binary: String) async throws -> ServeChild {
    let errors = try ChildPipe.fromChild()
    let child = try ChildProcess(
      binary, arguments: ["serve", "--listen", "127.0.0.1:0", "--cache-dir", "none"],
      standardInput: .nullDevice, standardOutput: .nullDevice, standardError: errors.forChild)
    errors.closeChildEnd()
    let handle = errors.handle
    let line = try await ServeSection.onThread { Self.firstLine(handle) }
    guard let range = line.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
      let port = UInt16(line[range].split(separator: ":").last ?? "")
    else {
      child.signal(SIGKILL)
      throw BenchmarkFailure(description: "serve named no address on its first stderr line: \(line)")
    }
    Thread.detachNewThread { _ = handle.readDataToEndOfFile() }
    return ServeChild(child: child, port: port)
  }

  /// Bytes up to the first newline, one at a time so that nothing after it is consumed.
  private static func firstLine(_ handle: FileHandle) -> String {
    var bytes: [UInt8] = []
    while let byte = handle.readData(ofLength: 1).first, byte != 10 { bytes.append(byte) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Its VmHWM (peak resident set since exec) in MB, while it runs.
  func peakResidentMegabytes() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(child.processIdentifier)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Double(line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first ?? "")
    else { return nil }
    return kilobytes / 1_024
  }

  /// Its user and system CPU time so far, in seconds (from /proc/PID/stat).
  func cpuSeconds() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(child.processIdentifier)/stat", encoding: .utf8),
      let end = text.lastIndex(of: ")")
    else { return nil }
    // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    let fields = text[text.index(after: end)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// SIGTERM, and its exit awaited (killed after 60 s).
  func stop() async {
    _ = await child.signal(SIGTERM, waitingAtMost: .seconds(60))
  }

  /// The body of `GET path` (Connection: close), read to the end.
  static func get(port: UInt16, path: String) throws -> Data {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw BenchmarkFailure(description: "socket: errno \(errno)") }
    defer { close(socket) }
    var patience = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
    guard connected == 0, request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count
    else { throw BenchmarkFailure(description: "cannot ask serve for \(path): errno \(errno)") }
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      answer += chunk[0..<count]
    }
    let separator: [UInt8] = [13, 10, 13, 10]
    guard answer.starts(with: Array("HTTP/1.1 200".utf8)),
      let end = (0..<max(0, answer.count - 3)).first(where: { answer[$0..<($0 + 4)].elementsEqual(separator) })
    else { throw BenchmarkFailure(description: "serve did not answer \(path) with 200") }
    return Data(answer[(end + 4)...])
  }
}
