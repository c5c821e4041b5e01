// The names kept for one release after a rename still compile and mean what they meant: a
// package written against 0.2.0's input types builds against this one, with warnings.
import Pipeline
import Testing

@Suite struct DeprecatedNamesTests {
  @available(*, deprecated, message: "uses the deprecated names on purpose")
  @Test func pipelineInputAndReplayLineAreInputRecord() {
    let keystroke = Keystroke(term: "tay", atMilliseconds: 120, session: "u1")
    let input: PipelineInput = .keystroke(keystroke)
    #expect(input == InputRecord.keystroke(keystroke, line: 0))
    let replayed: ReplayLine = .keystroke(keystroke, line: 7)
    #expect(replayed.line == 7)
    let invalid: PipelineInput = .invalid(line: 3, reason: "invalid JSON")
    #expect(invalid == InputRecord.invalid(line: 3, reason: "invalid JSON"))
  }
}
