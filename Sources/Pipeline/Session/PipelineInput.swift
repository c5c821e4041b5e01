// What enters the pipeline: a keystroke, or a line that could not be read as one.

/// One input line, parsed.
public enum PipelineInput: Sendable, Equatable {
  /// The search field's text after a keystroke, with its session if the line named one.
  case keystroke(Keystroke)
  /// A line that is not a keystroke; it becomes an `input_error` event and the run goes on.
  case invalid(line: Int, reason: String)
}
