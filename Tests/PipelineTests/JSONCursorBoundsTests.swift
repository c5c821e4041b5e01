// The JSON writer's end is a hard limit: an event or item written into less room than it takes
// stops at the end, says so, and touches nothing past it. The encoder measures before it writes;
// these tests hold the writer to the end whatever the measuring says.

import Testing

@testable import Pipeline

@Suite struct JSONCursorBoundsTests {
  /// A byte no JSON text written here contains, to see whether anything was written past the end.
  private static let untouched: UInt8 = 0xFF

  /// Writes with `write` into `room` bytes followed by a guard zone, and returns whether the
  /// cursor overflowed, what it wrote, and whether the guard zone is as it was.
  private static func written(
    room: Int, _ write: (inout JSONCursor) -> Void
  ) -> (overflowed: Bool, bytes: [UInt8], guardIntact: Bool) {
    var buffer = [UInt8](repeating: untouched, count: room + 256)
    return buffer.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return (true, [], false) }
      var cursor = JSONCursor(position: base, end: base + room)
      write(&cursor)
      let count = cursor.position - base
      let guardIntact = buffer[room...].allSatisfy { $0 == untouched }
      return (cursor.overflowed, Array(buffer[0..<min(count, room)]), guardIntact)
    }
  }

  @Test(arguments: 0..<EventExamples.pairs.count)
  func anEventInTooLittleRoomOverflowsAndWritesNothingPastTheEnd(example: Int) {
    let event = EventExamples.pairs[example].0
    let full = JSONLinesEncoder.bytes(of: event)
    #expect(!full.isEmpty)
    let exact = Self.written(room: full.count) { $0.event(event) }
    #expect(!exact.overflowed && exact.bytes == full && exact.guardIntact)
    for room in stride(from: 0, to: full.count, by: max(1, full.count / 97)) {
      let short = Self.written(room: room) { $0.event(event) }
      #expect(short.overflowed, "room \(room) of \(full.count)")
      #expect(short.guardIntact, "room \(room) of \(full.count): a byte was written past the end")
    }
  }

  @Test func aBuiltInItemInTooLittleRoomOverflowsWritesNothingPastTheEndAndIsNotKept() {
    let catalog = BuiltInCatalog.shared
    // Items the rest of the suite is unlikely to have written (the store keeps what it writes).
    for position in stride(from: catalog.count - 1, to: max(0, catalog.count - 40), by: -3) {
      let item = catalog.item(at: position)
      // The same item held as fields: written without the built-in store.
      let reference = Self.written(room: 4_096) { $0.item(SearchItem(fields: item.fields)) }
      #expect(!reference.overflowed && reference.bytes.count > 20)
      let length = reference.bytes.count
      for room in [0, 1, length / 3, length / 2, length - 1] {
        let short = Self.written(room: room) { $0.item(item) }
        #expect(short.overflowed && short.guardIntact, "item \(position), room \(room) of \(length)")
      }
      // A write cut short is never kept as the item's JSON: written whole, it is the whole item,
      // and so is the copy kept from that write.
      let whole = Self.written(room: length) { $0.item(item) }
      let copied = Self.written(room: length) { $0.item(item) }
      #expect(!whole.overflowed && whole.bytes == reference.bytes, "item \(position)")
      #expect(!copied.overflowed && copied.bytes == reference.bytes, "item \(position)")
    }
  }

  @Test func anEscapedStringStopsAtTheEnd() {
    let hostile = String(repeating: "\u{1}\"\\\n", count: 50)
    let full = Self.written(room: 4_096) { $0.string(hostile) }
    #expect(!full.overflowed && full.bytes.count == 2 + 50 * (6 + 2 + 2 + 2))
    for room in [0, 1, 7, full.bytes.count / 2, full.bytes.count - 1] {
      let short = Self.written(room: room) { $0.string(hostile) }
      #expect(short.overflowed && short.guardIntact, "room \(room)")
    }
  }

  @Test func numbersStopAtTheEnd() {
    for value in [0, 7, 42, 1_005, Int.max, Int.min, -1] {
      let full = Self.written(room: 64) { $0.integer(value) }
      #expect(!full.overflowed && String(decoding: full.bytes, as: UTF8.self) == String(value))
      for room in 0..<full.bytes.count {
        let short = Self.written(room: room) { $0.integer(value) }
        #expect(short.overflowed && short.guardIntact, "\(value) in \(room)")
      }
    }
  }
}
