// The tool's JSON Lines output (events, or `record`'s recording lines) read back as JSON objects,
// for the tests of this target that run the built binary.
import Foundation
import Testing

/// The JSON objects of `stdout`, one per line; fails the test at a line that is not an object.
func jsonObjects(_ stdout: String) throws -> [[String: Any]] {
  try stdout.split(separator: "\n").map { line in
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(object as? [String: Any], "not an object: \(line)")
  }
}
