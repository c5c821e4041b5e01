// From what the line reader read to what the pipeline takes: keystrokes, or input errors that
// name the line and the reason.
import Pipeline
import Streams

extension InputLine {
  /// The line as pipeline input: a keystroke, or why it is not one.
  var pipelineInput: PipelineInput {
    switch content {
    case .text(let text):
      switch InputLineParser.parse(text) {
      case .keystroke(let keystroke): return .keystroke(keystroke)
      case .invalid(let reason): return .invalid(line: number, reason: reason)
      }
    case .invalidUTF8(let byteCount):
      return .invalid(line: number, reason: "invalid UTF-8 (\(byteCount) bytes)")
    case .tooLong(let byteCount):
      return .invalid(
        line: number, reason: "line too long (\(byteCount) bytes; the maximum is set by --max-line-bytes)")
    }
  }

  /// The line for a replay: a keystroke with its line number, or why it is not one.
  var replayLine: ReplayLine {
    switch pipelineInput {
    case .keystroke(let keystroke): .keystroke(keystroke, line: number)
    case .invalid(let line, let reason): .invalid(line: line, reason: reason)
    }
  }
}
