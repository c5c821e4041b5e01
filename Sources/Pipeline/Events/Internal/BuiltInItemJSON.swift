// The JSON of built-in catalog items, kept once written. An item of the built-in catalog never
// changes (the catalog is compiled in), and a run writes the same items again and again: every
// prefix of a term finds mostly the items the prefix before found. Copying an item's JSON costs
// a lookup and a copy of its bytes; writing it again cost about 800 instructions.
import Synchronization

/// Built-in items' JSON objects, each written once and copied after.
///
/// Bounded: at most `capacity` bytes are kept (the whole catalog's JSON takes about 7 MB), and
/// nothing is ever removed, so an item found kept when an event is measured is still kept when
/// it is written.
final class BuiltInItemJSON: Sendable {
  /// The one store, shared by every encoder.
  static let shared = BuiltInItemJSON()

  /// The most bytes kept.
  static let capacity = 16 << 20

  private struct State {
    /// Per item position: where its JSON starts in `bytes` and how long it is
    /// (`offset << 16 | length`); 0 when it is not kept. Empty until the first item is kept.
    var spans: [UInt64] = []
    var bytes: [UInt8] = []
  }

  private let state = Mutex(State())

  /// The length of item `position`'s JSON when it is kept, else nil.
  func length(of position: Int) -> Int? {
    state.withLock { state -> Int? in
      guard position >= 0, position < state.spans.count else { return nil }
      let span = state.spans[position]
      return span == 0 ? nil : Int(span & 0xFFFF)
    }
  }

  /// Copies item `position`'s JSON to `cursor` when it is kept; false when it is not.
  func copy(_ position: Int, to cursor: inout JSONCursor) -> Bool {
    state.withLock { state -> Bool in
      guard position >= 0, position < state.spans.count else { return false }
      let span = state.spans[position]
      guard span != 0 else { return false }
      let start = Int(span >> 16)
      let end = start + Int(span & 0xFFFF)
      guard end <= state.bytes.count else { return false }
      state.bytes.withUnsafeBufferPointer { cursor.copy(UnsafeBufferPointer(rebasing: $0[start..<end])) }
      return true
    }
  }

  /// Keeps `json` as item `position`'s JSON, unless it is kept already or the store is full.
  func keep(_ position: Int, _ json: UnsafeBufferPointer<UInt8>, itemCount: Int) {
    guard json.count > 0, json.count <= 0xFFFF else { return }
    state.withLock { state in
      if state.spans.isEmpty { state.spans = [UInt64](repeating: 0, count: itemCount) }
      guard position >= 0, position < state.spans.count, state.spans[position] == 0,
        state.bytes.count + json.count <= Self.capacity
      else { return }
      state.spans[position] = UInt64(state.bytes.count) << 16 | UInt64(json.count)
      state.bytes.append(contentsOf: json)
    }
  }
}
