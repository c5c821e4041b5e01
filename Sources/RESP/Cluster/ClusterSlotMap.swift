// Which master serves each slot, as `CLUSTER SLOTS` tells it. The reply is input: ranges out of
// order, backwards, overlapping or past the last slot, ports out of range and nodes without an
// address are refused with the reason, so a bogus map is never routed by.

/// A node of a cluster, by address.
public struct ClusterNode: Sendable, Hashable, CustomStringConvertible {
  /// Its host (an IPv6 address without brackets).
  public let host: String
  /// Its port.
  public let port: UInt16

  /// A node from its address.
  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// `host:port`.
  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// The masters of a cluster and the slots each serves.
///
/// ```swift
/// let reply = try connection.call(RESPCommand("CLUSTER", "SLOTS"))
/// let map = try ClusterSlotMap(slots: reply, askedHost: "127.0.0.1")
/// map.master(of: ClusterSlot.of("{stream-search:3}:keys"))   // ClusterNode(host: …, port: …)
/// ```
public struct ClusterSlotMap: Sendable, Hashable {
  /// The masters, each once, in the order the reply first names them.
  public let masters: [ClusterNode]
  /// How many replicas each master has, by its index in ``masters``.
  public let replicaCounts: [Int]
  /// For each slot, the index of its master in ``masters``; -1 when no master serves it.
  private let owners: [Int16]

  /// The map `CLUSTER SLOTS`' reply describes. A node named with an empty host or `?` (one that
  /// does not know its own address) is taken to be on `askedHost`.
  ///
  /// - Throws: ``RESPError/protocolViolation(_:)`` saying what is wrong with the reply.
  public init(slots reply: RESPValue, askedHost: String) throws(RESPError) {
    guard let ranges = reply.array else { throw .protocolViolation("CLUSTER SLOTS answered no array") }
    var masters: [ClusterNode] = []
    var replicaCounts: [Int] = []
    var owners = [Int16](repeating: -1, count: ClusterSlot.count)
    for range in ranges {
      guard let parts = range.array, parts.count >= 3, let first = parts[0].integer, let last = parts[1].integer
      else { throw .protocolViolation("CLUSTER SLOTS: a range without its bounds and master") }
      guard first >= 0, first <= last, last < ClusterSlot.count else {
        throw .protocolViolation("CLUSTER SLOTS: the range \(first)-\(last) is not within 0-16383")
      }
      let master = try Self.node(parts[2], askedHost: askedHost)
      for replica in parts[3...] { _ = try Self.node(replica, askedHost: askedHost) }
      let index: Int
      if let known = masters.firstIndex(of: master) {
        index = known
      } else {
        guard masters.count < Int(Int16.max) else { throw .protocolViolation("CLUSTER SLOTS: too many masters") }
        index = masters.count
        masters.append(master)
        replicaCounts.append(parts.count - 3)
      }
      for slot in Int(first)...Int(last) {
        guard owners[slot] < 0 else {
          throw .protocolViolation("CLUSTER SLOTS: slot \(slot) is given to two masters")
        }
        owners[slot] = Int16(index)
      }
    }
    guard !masters.isEmpty else { throw .protocolViolation("CLUSTER SLOTS: no slot is served") }
    self.masters = masters
    self.replicaCounts = replicaCounts
    self.owners = owners
  }

  /// The master serving `slot`; nil for a slot no master serves (or out of range).
  public func master(of slot: Int) -> ClusterNode? {
    guard (0..<ClusterSlot.count).contains(slot) else { return nil }
    let owner = owners[slot]
    return owner < 0 ? nil : masters[Int(owner)]
  }

  /// How many replicas the master serving `slot` has (0 for a slot nobody serves).
  public func replicas(of slot: Int) -> Int {
    guard (0..<ClusterSlot.count).contains(slot), owners[slot] >= 0 else { return 0 }
    return replicaCounts[Int(owners[slot])]
  }

  /// How many slots some master serves: 16384 in a healthy cluster.
  public var coveredSlots: Int { owners.lazy.filter { $0 >= 0 }.count }

  private static func node(_ value: RESPValue, askedHost: String) throws(RESPError) -> ClusterNode {
    guard let fields = value.array, fields.count >= 2, let host = fields[0].string, host.utf8.count <= 255,
      let port = fields[1].integer, (1...65_535).contains(port)
    else { throw .protocolViolation("CLUSTER SLOTS: a node without a usable address") }
    let known = host.isEmpty || host == "?" ? askedHost : host
    guard !known.contains(" ") else { throw .protocolViolation("CLUSTER SLOTS: a node's host has a space") }
    return ClusterNode(host: known, port: UInt16(port))
  }
}
