// A cluster node's answer that a key is served elsewhere: `-MOVED <slot> <host>:<port>` (the slot
// has moved for good: ask the map again) or `-ASK <slot> <host>:<port>` (the slot is being moved:
// send this one command there, after `ASKING`). An error reply is input like any other: a reply
// that does not parse is no redirection, and the command's caller sees it as the error it is.

/// Where a cluster node sent a command.
///
/// ```swift
/// ClusterRedirect(error: "MOVED 3999 127.0.0.1:6381")
/// // ClusterRedirect(kind: .moved, slot: 3999, host: "127.0.0.1", port: 6381)
/// ClusterRedirect(error: "ASK 3999 :6381", from: "10.0.0.2")  // an empty host is the sender's
/// ```
public struct ClusterRedirect: Sendable, Hashable {
  /// Whether the slot moved for good or is moving.
  public enum Kind: Sendable, Hashable {
    /// The slot is now served by the node named: update the map.
    case moved
    /// The slot is being migrated: this command alone goes to the node named, after `ASKING`.
    case ask
  }

  /// `MOVED` or `ASK`.
  public let kind: Kind
  /// The key's slot, in `0..<16384`.
  public let slot: Int
  /// The node's host (an IPv6 address without brackets).
  public let host: String
  /// The node's port, in `1...65535`.
  public let port: UInt16

  /// A redirection from its parts.
  public init(kind: Kind, slot: Int, host: String, port: UInt16) {
    self.kind = kind
    self.slot = slot
    self.host = host
    self.port = port
  }

  /// The redirection an error reply's message says; nil unless it is `MOVED` or `ASK` with a
  /// slot in range and an address with a port in range. An empty host (a node that does not
  /// know its own address) is `from`, the host of the node that answered.
  public init?(error message: String, from sender: String? = nil) {
    let words = message.split(separator: " ", omittingEmptySubsequences: false)
    guard words.count == 3, words[1].utf8.count <= 5, words[2].utf8.count <= 300,
      let slot = Int(words[1]), (0..<ClusterSlot.count).contains(slot)
    else { return nil }
    switch words[0] {
    case "MOVED": kind = .moved
    case "ASK": kind = .ask
    default: return nil
    }
    // The port follows the last colon: an IPv6 address has colons of its own.
    let address = words[2]
    guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...]),
      port > 0
    else { return nil }
    var host = Substring(address[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 { host = host.dropFirst().dropLast() }
    guard !host.contains(" "), !host.contains("[") else { return nil }
    if host.isEmpty {
      guard let sender, !sender.isEmpty else { return nil }
      host = Substring(sender)
    }
    self.slot = slot
    self.host = String(host)
    self.port = port
  }
}
