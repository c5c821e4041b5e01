// The `stream-search` executable: parses the command line, answers help and version, reports
// usage errors (status 64), and otherwise hands the validated options to the pipeline.
import Foundation

ignoreSIGPIPE()

let invocation: Invocation
do {
  invocation = try CommandLineParser.parse(
    Array(CommandLine.arguments.dropFirst()), stdoutIsTerminal: isatty(STDOUT_FILENO) != 0
  )
} catch {
  try? OutputWriter.standardError.write(error.text)
  exit(ExitStatus.usage.rawValue)
}

switch invocation {
case .help(let text), .version(let text):
  do throws(OutputError) {
    try OutputWriter.standardOutput.write(text)
  } catch .closed {
    // The reader went away (e.g. `--help | head -1`): that is not a failure.
  } catch {
    Log(level: .normal).error("Cannot write to standard output: \(error)")
    exit(ExitStatus.ioError.rawValue)
  }
  exit(ExitStatus.success.rawValue)
case .search(let options):
  // Placeholder until the pipeline is wired: show what would run.
  try? OutputWriter.standardError.write("stream-search: parsed \(options)\n")
  exit(ExitStatus.success.rawValue)
case .record(let options):
  try? OutputWriter.standardError.write("stream-search: parsed \(options)\n")
  exit(ExitStatus.success.rawValue)
}
