// Every code example in the package's docs is copied word for word into a test that compiles
// and runs it. This finds the examples and tells which have no copy, so an example cannot
// drift from code that compiles: each test target checks the documents of the modules it tests.
import Foundation

/// The Swift code examples of Markdown files and doc comments, and the check that each is
/// copied into a test folder.
public enum DocExamples {
  /// The examples of `documents` (Markdown files, or Swift files and folders of them, relative
  /// to the package root; a folder's Markdown files too, so a DocC catalog in it counts) that no
  /// Swift file in `testFolder` contains, as "path#n"; and how many examples were looked at.
  ///
  /// Reading and normalising every file takes seconds in a debug build, so it runs on a thread
  /// of its own rather than hold a task thread.
  public static func uncopied(
    in documents: [String], copiesIn testFolder: String, filePath: String = #filePath
  ) async throws -> (checked: Int, missing: [String]) {
    try await OwnThread.value { try scan(documents, copiesIn: testFolder, filePath: filePath) }
  }

  private static func scan(
    _ documents: [String], copiesIn testFolder: String, filePath: String
  ) throws -> (checked: Int, missing: [String]) {
    guard let root = SharedFixtures.packageRoot(filePath: filePath) else { return (0, ["no Package.swift"]) }
    let copies = try files(under: root.appendingPathComponent(testFolder), extensions: ["swift"]).map { url in
      try String(contentsOf: url, encoding: .utf8)
    }
    let copied = normalised(copies.joined(separator: "\n"))
    var checked = 0
    var missing: [String] = []
    for document in documents {
      let url = root.appendingPathComponent(document)
      let files = document.hasSuffix(".md") ? [url] : try files(under: url, extensions: ["swift", "md"])
      for file in files {
        let text = try String(contentsOf: file, encoding: .utf8)
        let name = file.path.dropFirst(root.path.count + 1)
        for (index, block) in swiftBlocks(in: text).enumerated() {
          checked += 1
          if !copied.contains(normalised(block)) { missing.append("\(name)#\(index + 1)") }
        }
      }
    }
    return (checked, missing)
  }

  /// The Swift code blocks of a Markdown file or of a Swift file's doc comments.
  public static func swiftBlocks(in text: String) -> [String] {
    var blocks: [String] = []
    var current: [String]?
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = rawLine.drop { $0 == " " }
      if line.hasPrefix("///") { line = line.dropFirst(3) }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```swift" {
        current = []
      } else if let lines = current, trimmed == "```" {
        blocks.append(lines.joined(separator: "\n"))
        current = nil
      } else if current != nil {
        current?.append(String(line))
      }
    }
    return blocks
  }

  /// Lines without their indentation, empty lines and `#expect` lines dropped: a copy may sit
  /// deeper in a test, and check the example's comments with expectations between its lines.
  public static func normalised(_ text: String) -> String {
    text.split(separator: "\n").map { line -> String in
      var line = line.drop { $0 == " " }
      if line.hasPrefix("///") { line = line.dropFirst(3) }
      return line.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty && !$0.hasPrefix("#expect(") }.joined(separator: "\n")
  }

  /// The files under `folder` with one of `extensions` (or `folder` itself when it is one), sorted.
  private static func files(under folder: URL, extensions: Set<String>) throws -> [URL] {
    if extensions.contains(folder.pathExtension) { return [folder] }
    var files: [URL] = []
    let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let url = walker?.nextObject() as? URL {
      if extensions.contains(url.pathExtension) { files.append(url) }
    }
    return files.sorted { $0.path < $1.path }
  }
}
