// How much of a reply the client accepts. A reply is input: a server (or whatever answers on
// its port) can claim a two-gigabyte string, a two-billion-element array or arrays nested a
// million deep, and the client must refuse before it allocates, not after.

/// Bounds on one reply; a reply beyond any of them is a ``RESPError/protocolViolation(_:)``
/// and the connection is closed.
///
/// The defaults are far above anything this project's commands receive (the largest are a page
/// of stream entries, a few megabytes) and far below what would hurt a process.
public struct RESPLimits: Sendable, Hashable {
  /// Longest bulk string, in bytes (`$N`). Default 64 MiB (Redis's own cap is 512 MiB).
  public var maxBulkBytes: Int
  /// Most elements of one array (`*N`). Default 1,048,576.
  public var maxArrayCount: Int
  /// Deepest nesting of arrays in one reply. Default 16 (stream replies nest 4 deep).
  public var maxDepth: Int
  /// Most values (scalars and arrays) in one reply. Default 1,048,576.
  public var maxValues: Int
  /// Most bytes of one reply on the wire. Default 128 MiB.
  public var maxReplyBytes: Int
  /// Longest status, error or integer line (`+…`, `-…`, `:…`, and the `$N`/`*N` headers), in
  /// bytes. Default 64 KiB.
  public var maxLineBytes: Int

  /// Limits with every default, or the values given.
  public init(
    maxBulkBytes: Int = 64 << 20, maxArrayCount: Int = 1 << 20, maxDepth: Int = 16, maxValues: Int = 1 << 20,
    maxReplyBytes: Int = 128 << 20, maxLineBytes: Int = 64 << 10
  ) {
    self.maxBulkBytes = maxBulkBytes
    self.maxArrayCount = maxArrayCount
    self.maxDepth = maxDepth
    self.maxValues = maxValues
    self.maxReplyBytes = maxReplyBytes
    self.maxLineBytes = maxLineBytes
  }
}
