// A request's or a response's header fields, in the order they came, looked up by name without
// regard to case (RFC 9110: field names are case-insensitive).

/// Header fields in their order, looked up case-insensitively.
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Cache-Control", "no-store")
/// headers["cache-control"]   // "no-store"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence {
  /// The fields as (name, value) pairs, names as they were written.
  public private(set) var fields: [(name: String, value: String)]

  /// Headers with the given fields, in order.
  public init(_ fields: [(name: String, value: String)] = []) {
    self.fields = fields
  }

  /// The first value of the field `name` (any case), or nil.
  public subscript(_ name: String) -> String? {
    fields.first { Self.same($0.name, name) }?.value
  }

  /// Every value of the field `name` (any case), in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.same($0.name, name) }.map(\.value)
  }

  /// Whether a comma-separated field `name` lists `token` (any case), as `Connection: keep-alive,
  /// Upgrade` lists `upgrade`.
  public func contains(_ name: String, token: String) -> Bool {
    values(for: name).contains { value in
      value.split(separator: ",").contains { Self.same($0.trimmingSpaces, token) }
    }
  }

  /// Appends a field, keeping any of the same name.
  public mutating func add(_ name: String, _ value: String) {
    fields.append((name, value))
  }

  /// Replaces every field `name` (any case) with one of `value`.
  public mutating func set(_ name: String, _ value: String) {
    fields.removeAll { Self.same($0.name, name) }
    fields.append((name, value))
  }

  /// Iterates the fields in order.
  public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
    fields.makeIterator()
  }

  /// Whether both have the same fields, written the same way, in the same order.
  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
  }

  /// Hashes the fields in order, as `==` compares them.
  public func hash(into hasher: inout Hasher) {
    for field in fields {
      hasher.combine(field.name)
      hasher.combine(field.value)
    }
  }

  static func same(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
    lhs.utf8.count == rhs.utf8.count && lhs.lowercased() == rhs.lowercased()
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
  var trimmingSpaces: Substring {
    let text = Substring(self)
    let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
    let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
    return start < end ? text[start..<end] : text[start..<start]
  }
}
