// The worker's bookkeeping between Redis and the pipeline: which keystroke entry each input line
// came from, which keystrokes each session still holds, and, when an event comes out, which of
// them it accounts for. It decides nothing about searching: the pipeline's events say which
// keystroke they are about (`SearchEvent.inputLine`), and the ledger only looks that up.
import Pipeline

/// A keystroke entry read from a shard's stream.
struct ShardEntry: Sendable, Equatable {
  /// The entry's stream id, e.g. `1712345678901-0`.
  let id: String
  /// The session named by its `session` field; nil for none.
  let session: String?
  /// The field's text (`term`), or why the entry is not a keystroke.
  let term: Result<String, EntryRefusal>
}

/// Why an entry of a keystroke stream is not a keystroke.
struct EntryRefusal: Error, Equatable {
  let reason: String
}

/// One shard held under one lease: its events are committed with that lease's value, and the
/// pipeline sessions of another holding never mix with these.
struct ShardHolding: Hashable, Sendable {
  let shard: Int
  /// The lease's value, `<token>:<worker>`.
  let lease: String
}

/// What the committer is to do for one event: append it (or not) and acknowledge keystrokes.
struct CommitItem: Sendable {
  /// How the commit treats it.
  let eventClass: EventClass
  let holding: ShardHolding
  let session: String?
  let key: String
  let type: String
  /// The event to append.
  let body: EventBody
  /// A search's end key; an end's search key.
  let extra: [UInt8]
  /// A search's term (its `cancelled` events are made from it only if it is left open).
  var term: String? = nil
  /// The entry the event is about (checked pending for ends, clears and input errors).
  let settlingID: String
  /// Entries acknowledged with it.
  let acknowledged: [String]

  init(
    eventClass: EventClass, holding: ShardHolding, session: String?, key: String, type: String, body: EventBody,
    extra: [UInt8], term: String? = nil, settlingID: String, acknowledged: [String]
  ) {
    self.eventClass = eventClass
    self.holding = holding
    self.session = session
    self.key = key
    self.type = type
    self.body = body
    self.extra = extra
    self.term = term
    self.settlingID = settlingID
    self.acknowledged = acknowledged
    footprint = 160 + body.maximumCount + extra.count + key.utf8.count + 32 * acknowledged.count
  }

  init(
    eventClass: EventClass, holding: ShardHolding, session: String?, key: String, type: String, json: [UInt8],
    extra: [UInt8], term: String? = nil, settlingID: String, acknowledged: [String]
  ) {
    self.init(
      eventClass: eventClass, holding: holding, session: session, key: key, type: type, body: .encoded(json),
      extra: extra, term: term, settlingID: settlingID, acknowledged: acknowledged)
  }

  /// The event's JSON object (encoded now if it was deferred).
  var json: [UInt8] { body.json }

  /// At most the bytes it adds to a commit (and about the most memory it holds while waiting).
  let footprint: Int
}

/// An event as a commit item carries it: its JSON, or the stamped event itself, encoded when the
/// commit is written, on the committer's thread. A deferred event shares its items with the
/// cache that answered it, so waiting for a commit costs its references, not its 10 KB of JSON;
/// and the pipeline's thread, which emits it under its lock, does not encode it.
enum EventBody: Sendable {
  case encoded([UInt8])
  case deferred(SearchEvent)

  /// The event's JSON object, without the line's newline.
  var json: [UInt8] {
    switch self {
    case .encoded(let bytes): bytes
    case .deferred(let event): WorkerSink.json(event)
    }
  }

  /// At least the length of ``json``, without encoding it: the bound the encoder measures.
  var maximumCount: Int {
    switch self {
    case .encoded(let bytes): bytes.count
    case .deferred(let event): JSONEventWriter.maximumLength(of: event)
    }
  }
}

/// Maps input lines to entries and sessions; not thread-safe (the worker holds it behind a lock).
struct SessionLedger {
  private struct Book {
    let holding: ShardHolding
    let session: String?
    /// Fed keystrokes not yet acknowledged, by ascending line.
    var pending: [(line: Int, id: String)] = []
    /// The line of the search the session has open (its `search` seen, its end not yet).
    var openSearch: Int?
  }

  private var books: [String: Book] = [:]
  /// Lines of entries that are not keystrokes: their `input_error` names no session.
  private var refused: [Int: String] = [:]

  /// Keystrokes fed to the pipeline and not yet acknowledged, per shard (for a metrics scrape).
  func pendingCounts() -> [Int: Int] {
    var counts: [Int: Int] = [:]
    for book in books.values where !book.pending.isEmpty {
      counts[book.holding.shard, default: 0] += book.pending.count
    }
    return counts
  }
  private var nextLine = 1

  /// The pipeline session name of `session` in `holding`: unique per holding, so sessions start
  /// afresh whenever a shard changes hands, even back to this worker.
  static func pipelineSession(_ session: String?, in holding: ShardHolding) -> String {
    "\(holding.shard)|\(holding.lease)|\(session ?? "")"
  }

  /// Records `entry` of `holding` and returns the input record to feed the pipeline.
  mutating func admit(_ entry: ShardEntry, of holding: ShardHolding) -> InputRecordDraft {
    let line = nextLine
    nextLine += 1
    let name = Self.pipelineSession(entry.session, in: holding)
    books[name, default: Book(holding: holding, session: entry.session)].pending.append((line, entry.id))
    switch entry.term {
    case .success(let term):
      return InputRecordDraft(line: line, session: name, outcome: .success(term))
    case .failure(let refusal):
      refused[line] = name
      return InputRecordDraft(line: line, session: name, outcome: .failure(refusal))
    }
  }

  /// Forgets everything of `holding` (the shard was lost or given back): later events of its
  /// sessions find no book and are not committed.
  mutating func drop(_ holding: ShardHolding) {
    let prefix = "\(holding.shard)|\(holding.lease)|"
    books = books.filter { !$0.key.hasPrefix(prefix) }
    refused = refused.filter { !$0.value.hasPrefix(prefix) }
  }

  /// The pipeline forgot an idle session: its keystrokes that led to nothing (typed back to the
  /// term last searched) are acknowledged now, unless a search is still open.
  mutating func forget(pipelineSession name: String) -> CommitItem? {
    guard let book = books[name], book.openSearch == nil else { return nil }
    books[name] = nil
    guard let last = book.pending.last else { return nil }
    return CommitItem(
      eventClass: .acknowledgement, holding: book.holding, session: book.session, key: "", type: "",
      body: .encoded([]), extra: [], settlingID: last.id, acknowledged: book.pending.map(\.id))
  }

  /// What to commit for an event of pipeline session `name` about input line `line`; nil when it
  /// belongs to a shard no longer held (or to nothing this worker fed).
  mutating func account(
    kind: EventClass, pipelineSession name: String?, line: Int, encode: (String?) -> EncodedEvent
  ) -> CommitItem? {
    let key: String
    if case .inputError = kind {
      guard let owner = refused.removeValue(forKey: line) else { return nil }
      key = owner
    } else {
      guard let name else { return nil }
      key = name
    }
    guard var book = books[key], let position = book.pending.firstIndex(where: { $0.line == line }) else {
      return nil
    }
    let settling = book.pending[position].id
    let encoded = encode(book.session)
    let base = "\(book.holding.shard)/\(settling)/"
    var acknowledged: [String] = []
    let item: CommitItem
    switch kind {
    case .search:
      book.openSearch = line
      item = commit(
        kind, book, base + "search", encoded, extra: Array((base + "end").utf8), settling: settling, acks: [])
    case .other(let suffix):
      item = commit(kind, book, base + suffix, encoded, extra: [], settling: settling, acks: [])
    case .end:
      if book.openSearch == line { book.openSearch = nil }
      acknowledged = book.pending[...position].map(\.id)
      book.pending.removeSubrange(...position)
      item = commit(
        kind, book, base + "end", encoded, extra: Array((base + "search").utf8), settling: settling,
        acks: acknowledged)
    case .cleared:
      acknowledged = book.pending[...position].map(\.id)
      book.pending.removeSubrange(...position)
      item = commit(kind, book, base + "cleared", encoded, extra: [], settling: settling, acks: acknowledged)
    case .inputError:
      book.pending.remove(at: position)
      item = commit(kind, book, base + "input_error", encoded, extra: [], settling: settling, acks: [settling])
    case .acknowledgement:
      // Never an event's: only a forgotten session's acknowledgement (``forget(pipelineSession:)``).
      return nil
    }
    if book.pending.isEmpty && book.openSearch == nil {
      books[key] = nil
    } else {
      books[key] = book
    }
    return item
  }

  /// Sessions with keystrokes or a search in flight (for tests and memory checks).
  var openBookCount: Int { books.count }

  private func commit(
    _ eventClass: EventClass, _ book: Book, _ key: String, _ encoded: EncodedEvent, extra: [UInt8], settling: String,
    acks: [String]
  ) -> CommitItem {
    CommitItem(
      eventClass: eventClass, holding: book.holding, session: book.session, key: key, type: encoded.type,
      body: encoded.body, extra: extra, term: encoded.searchTerm, settlingID: settling, acknowledged: acks)
  }
}

/// How the ledger and the commit treat an event: one type from the pipeline's event to the
/// transaction that stores it.
enum EventClass: Equatable, Sendable {
  /// `search`: opens the session's search.
  case search
  /// `results`, `error`, `cancelled`: the search's end; acknowledges its keystrokes.
  case end
  /// `cleared`: acknowledges the keystrokes up to the clear.
  case cleared
  /// `input_error`: acknowledges its entry.
  case inputError
  /// `waiting`, `partial`: may repeat after a takeover; the suffix of its key.
  case other(String)
  /// No event: the keystrokes of a session the pipeline forgot, acknowledged.
  case acknowledgement

  /// Whether the commit appends an event for it.
  var appendsAnEvent: Bool { self != .acknowledgement }

  /// Whether it may start, end or replace its session's open search.
  var touchesTheOpenSearch: Bool {
    switch self {
    case .search, .end, .cleared: true
    case .inputError, .other, .acknowledgement: false
    }
  }
}

/// An event as the commit stores it: its type, its JSON, and for a search its term (the
/// `cancelled` events that end it if its worker dies first are made from it when needed).
struct EncodedEvent {
  let type: String
  let body: EventBody
  var searchTerm: String? = nil

  init(type: String, body: EventBody, searchTerm: String? = nil) {
    self.type = type
    self.body = body
    self.searchTerm = searchTerm
  }

  init(type: String, json: [UInt8], searchTerm: String? = nil) {
    self.init(type: type, body: .encoded(json), searchTerm: searchTerm)
  }
}

/// The pipeline input made from an entry: a keystroke of a pipeline session, or a refusal.
struct InputRecordDraft {
  let line: Int
  let session: String
  let outcome: Result<String, EntryRefusal>
}
