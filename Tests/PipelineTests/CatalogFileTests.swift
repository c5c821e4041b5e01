// Loading a catalog file: a JSON array of items and a saved iTunes response load; a file that is
// missing, not JSON, of another shape or with a bad item gives a typed one-line error.
import Catalog
import Foundation
import Pipeline
import TestSupport
import Testing

@Suite struct CatalogFileTests {
  /// Items as iTunes writes them, with `id` too, so they decode whichever field names
  /// `SearchItem` reads.
  private let itemsJSON = """
    [
      {"id": 11, "trackId": 11, "wrapperType": "track", "kind": "song", "trackName": "Harbor Lights",
       "artistName": "Mara Quinn", "collectionName": "Tides", "popularity": 5, "extraField": true},
      {"id": 12, "trackId": 12, "wrapperType": "track", "kind": "podcast", "trackName": "Harbor Talk",
       "artistName": "Port Radio", "feedUrl": "https://catalog.invalid/feed/12.xml"}
    ]
    """

  @Test func loadsAJSONArrayOfItems() throws {
    let file = try TemporaryFile(itemsJSON)
    let items = try CatalogSource.load(contentsOf: file.path)
    #expect(items.map(\.id) == [11, 12])
    #expect(items.map(\.trackName) == ["Harbor Lights", "Harbor Talk"])
    #expect(items[1].feedUrl == "https://catalog.invalid/feed/12.xml")
  }

  @Test func loadsASavedITunesResponse() async throws {
    let file = try TemporaryFile(#"{"resultCount": 2, "results": \#(itemsJSON)}"#)
    let items = try CatalogSource.load(contentsOf: file.path)
    #expect(items.map(\.id) == [11, 12])
    let source = CatalogSource(items: items)
    let found = try await source.search(SearchRequest(term: "harbour", category: .podcasts))
    #expect(found.map(\.id) == [12])
  }

  @Test func aPipeWhoseFirstReadIsOnlyWhitespaceIsReadOn() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { close(readEnd) }
    let json = itemsJSON
    let writer = DispatchGroup()
    OwnThread.run(in: writer) {
      Subprocess.writeAll(Data(" \n\t".utf8), to: writeEnd)
      // The rest only once the reader has taken the whitespace, so its first read held nothing
      // else (bounded: 10 s).
      var queued: Int32 = 1
      for _ in 0..<10_000 where queued > 0 {
        _ = ioctl(readEnd, UInt(FIONREAD), &queued)
        if queued > 0 { _ = poll(nil, 0, 1) }
      }
      Subprocess.writeAll(Data(json.utf8), to: writeEnd)
      close(writeEnd)
    }
    let items = try await OwnThread.value { try CatalogSource.load(contentsOf: "/dev/fd/\(readEnd)") }
    writer.wait()
    #expect(items.map(\.id) == [11, 12])
  }

  @Test func onlyWhitespaceIsRefusedAtTheEnd() throws {
    let file = try TemporaryFile(String(repeating: " \n", count: 5_000))
    #expect(throws: CatalogFileError.notJSON(path: file.path, reason: "the file holds only whitespace")) {
      try CatalogSource.load(contentsOf: file.path)
    }
  }

  @Test func aMissingFileIsAnUnreadableError() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).json").path
    let error = #expect(throws: CatalogFileError.self) { try CatalogSource.load(contentsOf: path) }
    #expect(error == .unreadable(path: path, reason: "no such file"))
    #expect(error?.message == "cannot read catalog file '\(path)': no such file")
  }

  @Test func aFileThatIsNotJSONIsANotJSONError() throws {
    let file = try TemporaryFile("title,artist\nCreep,Radiohead\n")
    let error = #expect(throws: CatalogFileError.self) { try CatalogSource.load(contentsOf: file.path) }
    guard case .notJSON(let path, _) = error else {
      Issue.record("expected notJSON, got \(String(describing: error))")
      return
    }
    #expect(path == file.path)
    #expect(error?.message.contains("\n") == false)
  }

  @Test func jsonOfAnotherShapeIsAWrongShapeError() throws {
    let file = try TemporaryFile(#"{"items": []}"#)
    let error = #expect(throws: CatalogFileError.self) { try CatalogSource.load(contentsOf: file.path) }
    #expect(error == .wrongShape(path: file.path, found: "an object without a \"results\" array"))
  }

  @Test func anItemThatDoesNotDecodeNamesItsPosition() throws {
    let file = try TemporaryFile(#"[{"id": 1, "trackId": 1}, {"id": "two", "trackId": "two"}]"#)
    let error = #expect(throws: CatalogFileError.self) { try CatalogSource.load(contentsOf: file.path) }
    guard case .invalidItem(_, let index, _) = error else {
      Issue.record("expected invalidItem, got \(String(describing: error))")
      return
    }
    #expect(index == 1)
    #expect(error?.message.hasPrefix("catalog file '\(file.path)': item 1 is invalid: ") == true)
  }
}

/// A file in the temporary directory holding `contents`, removed when the value goes away.
private final class TemporaryFile {
  let path: String

  init(_ contents: String) throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID()).json").path
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
