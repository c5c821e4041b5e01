// Which command-line arguments are not UTF-8, read from the bytes the process was given.
//
// `CommandLine.arguments` replaces each ill-formed byte with U+FFFD, so a path holding one (a
// Latin-1 file name) would arrive naming another file, and "no such file" would blame the user
// for a file that is there. The parser refuses such a value instead, saying why.
import Foundation

/// The raw arguments of the process.
enum RawArguments {
  /// The positions, in `CommandLine.arguments.dropFirst()`, of the arguments whose bytes are not
  /// valid UTF-8.
  static func positionsNotUTF8() -> Set<Int> {
    var positions: Set<Int> = []
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      if String(validatingCString: argument) == nil { positions.insert(index - 1) }
    }
    return positions
  }
}
