// The names the input record had before it became the one record of every way in, kept for one
// release so that a package written against them still compiles, warned of the name to use.

/// The input ``SearchPipeline/run(_:)`` took before 0.3.0; now ``InputRecord``.
@available(*, deprecated, renamed: "InputRecord", message: "removed in 0.5.0")
public typealias PipelineInput = InputRecord

/// The recorded line ``ReplayDriver`` read before 0.3.0; now ``InputRecord``, with the same cases.
@available(*, deprecated, renamed: "InputRecord", message: "removed in 0.5.0")
public typealias ReplayLine = InputRecord

extension InputRecord {
  /// A keystroke without its line number, as `PipelineInput.keystroke(_:)` was made before 0.3.0.
  ///
  /// Its ``line`` is 0; a live pipeline reads a keystroke's text, instant and session, never its
  /// line number.
  @available(*, deprecated, message: "use .keystroke(_:line:); removed in 0.5.0")
  public static func keystroke(_ keystroke: Keystroke) -> InputRecord { .keystroke(keystroke, line: 0) }
}
