// Every reply a connection receives is checked here against what its command can answer
// (``RESPReplyKinds``), transactions included: between `MULTI` and `EXEC` a command answers
// `+QUEUED`, and `EXEC` answers one reply per queued command, each checked against its own.

/// What one command of a request is to be answered with.
struct ReplyExpectation: Sendable {
  /// How the command takes part in a transaction.
  enum Role: Sendable {
    case plain
    case multi
    case exec
    case discard
  }

  /// The command's name as the caller wrote it.
  let name: String
  /// The command's name (and subcommand) as messages show it.
  let command: String
  let kinds: RESPReplyKinds
  let role: Role
  /// Whether the reply depends on the first argument (a container command's subcommand).
  let dependsOnArguments: Bool

  /// The expectation of command `name`; `firstArgument` is asked for only by container commands.
  init(name: String, firstArgument: () -> [UInt8]?) {
    // Callers write names in upper case: the common case costs no conversion.
    let upper = RESPReplyKinds.isKnown(name) ? name : name.uppercased()
    self.name = name
    dependsOnArguments = RESPReplyKinds.containers.contains(upper)
    let subcommand = dependsOnArguments ? firstArgument() : nil
    command = subcommand.map { "\(upper) \(String(decoding: $0, as: UTF8.self).uppercased())" } ?? upper
    kinds = RESPReplyKinds.expected(name: upper, subcommand: subcommand)
    role =
      switch upper {
      case "MULTI": .multi
      case "EXEC": .exec
      case "DISCARD": .discard
      default: .plain
      }
  }
}

/// The transaction state of one connection, and the check of each reply in order.
struct ReplyCheck: Sendable {
  /// The commands queued since `MULTI`; nil outside a transaction.
  private var queued: [ReplyExpectation]?

  /// Checks `reply`, the answer to the command of `expectation`.
  ///
  /// - Throws: ``RESPError/unexpectedReply(command:reply:expected:)`` for a reply of a type the
  ///   command never answers; ``RESPError/protocolViolation(_:)`` for an `EXEC` whose replies do
  ///   not match the commands queued.
  mutating func check(_ reply: RESPValue, to expectation: ReplyExpectation) throws(RESPError) {
    switch expectation.role {
    case .multi:
      try Self.plain(reply, expectation)
      if reply.errorMessage == nil { queued = [] }
    case .exec:
      guard let commands = queued else { return try Self.plain(reply, expectation) }
      queued = nil
      switch reply {
      case .error, .null:
        // Refused (EXECABORT), or voided by a WATCH: nothing ran.
        return
      case .array(let results):
        guard results.count == commands.count else {
          throw .protocolViolation("EXEC answered \(results.count) replies for \(commands.count) commands")
        }
        for (result, command) in zip(results, commands) { try Self.plain(result, command) }
      default:
        try Self.plain(reply, expectation)
      }
    case .discard:
      queued = nil
      try Self.plain(reply, expectation)
    case .plain:
      guard queued != nil else { return try Self.plain(reply, expectation) }
      // Refused at queueing (EXEC will abort): nothing queued.
      if case .error = reply { return }
      guard case .simpleString("QUEUED") = reply else {
        throw .unexpectedReply(
          command: expectation.command, reply: Self.describe(reply), expected: "QUEUED inside MULTI")
      }
      queued?.append(expectation)
    }
  }

  private static func plain(_ reply: RESPValue, _ expectation: ReplyExpectation) throws(RESPError) {
    guard expectation.kinds.admits(reply) else {
      throw .unexpectedReply(
        command: expectation.command, reply: describe(reply), expected: expectation.kinds.description)
    }
  }

  /// The reply in a few words: `an integer (1)`, `an array of 2`.
  static func describe(_ reply: RESPValue) -> String {
    switch reply {
    case .simpleString(let text): "a status (\(text.prefix(40)))"
    case .error(let message): "an error (\(message.prefix(40)))"
    case .integer(let number): "an integer (\(number))"
    case .bulkString(let bytes): "a bulk string of \(bytes.count) bytes"
    case .null: "null"
    case .array(let elements): "an array of \(elements.count)"
    }
  }
}
