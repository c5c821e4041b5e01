// The live side of the interactive screen: takes keys from the key reader and events from the
// pipeline, updates the state under one lock, and draws the difference. Each change of the
// field's text becomes the next keystroke of the pipeline's input (and of the recording).
import Foundation
import Pipeline
import Streams
import Synchronization

/// How an interactive session ended.
enum InteractiveEnding: Equatable, Sendable {
  /// Enter: print this item.
  case accepted(SearchItem)
  /// Esc or Ctrl-C.
  case cancelled
  /// SIGINT or SIGTERM from outside.
  case signal(TerminationSignal)
  /// The terminal went away (SIGHUP, or reading it failed).
  case hungUp
  /// Standard output's reader went away.
  case outputClosed
  /// Writing the recording failed, with the reason.
  case recordingFailed(String)
}

/// Connects keys, the pipeline and the screen.
///
/// Calls may come from any thread (the key reader, the pipeline's sink, signal handlers); each
/// takes the lock, changes the state, and draws before releasing it, so frames never interleave.
/// After the first ending, nothing more is drawn or sent.
final class InteractiveController: Sendable {
  private struct State {
    var screen = InteractiveState()
    var renderer: ScreenRenderer
    var requestTimes: [ContinuousClock.Instant] = []
    var ended = false
    /// Keystrokes sent so far: each is the next line of the pipeline's input.
    var keystrokesSent = 0
  }

  private let state: Mutex<State>
  private let terminal: TerminalDevice
  private let keystrokes: AsyncStream<InputRecord>.Continuation
  private let endings: AsyncStream<InteractiveEnding>.Continuation
  private let recording: OutputWriter?
  private let rateLimit: RateLimit?
  private let clock: ContinuousClock
  private let start: ContinuousClock.Instant

  /// A controller drawing on `terminal`, feeding `keystrokes`, reporting its end on `endings`,
  /// and writing each keystroke to `recording` when there is one.
  init(
    terminal: TerminalDevice, keystrokes: AsyncStream<InputRecord>.Continuation,
    endings: AsyncStream<InteractiveEnding>.Continuation, recording: OutputWriter?, rateLimit: RateLimit?,
    clock: ContinuousClock
  ) {
    self.terminal = terminal
    self.keystrokes = keystrokes
    self.endings = endings
    self.recording = recording
    self.rateLimit = rateLimit
    self.clock = clock
    start = clock.now
    state = Mutex(State(renderer: ScreenRenderer(size: terminal.size)))
  }

  /// Draws the current state (the first frame, or after a change from outside).
  func redraw() {
    state.withLock { draw(&$0) }
  }

  /// The window changed size: redraw everything at the new size.
  func resize() {
    state.withLock { state in
      state.renderer.resize(to: terminal.size)
      draw(&state)
    }
  }

  /// The process continued after a stop: take the terminal again and draw every row, at the
  /// terminal's size now.
  func resume() {
    terminal.resume()
    resize()
  }

  /// One request reached the source (the pipeline's `fetching` diagnostic).
  func noteRequest() {
    state.withLock { state in
      state.screen.requests += 1
      if rateLimit != nil { state.requestTimes.append(clock.now) }
    }
  }

  /// Takes one pipeline event and draws its effect.
  func show(_ event: SearchEvent) {
    state.withLock { state in
      guard !state.ended else { return }
      state.screen.apply(event)
      draw(&state)
    }
  }

  /// Takes what the key reader reports.
  func handle(_ event: KeyReaderEvent) {
    switch event {
    case .keys(let keys): handle(keys)
    case .terminalGone: end(.hungUp)
    case .outputClosed: end(.outputClosed)
    }
  }

  /// Ends the session (the first ending wins).
  func end(_ ending: InteractiveEnding) {
    let first = state.withLock { state in
      defer { state.ended = true }
      return !state.ended
    }
    guard first else { return }
    endings.yield(ending)
    endings.finish()
  }

  private func handle(_ keys: [Key]) {
    var suspend = false
    let ending = state.withLock { state -> InteractiveEnding? in
      guard !state.ended else { return nil }
      let before = state.screen.field.text
      var ending: InteractiveEnding?
      for key in keys {
        // Raw mode turns the terminal's own Ctrl-Z off: sent as the terminal would, once unlocked.
        if key == .control("z") {
          suspend = true
          continue
        }
        ending = apply(key, to: &state)
        if ending != nil { break }
      }
      let text = state.screen.field.text
      if text != before, ending == nil {
        state.keystrokesSent += 1
        if let failure = send(text, line: state.keystrokesSent) { ending = .recordingFailed(failure) }
      }
      if ending == nil { draw(&state) }
      return ending
    }
    if let ending {
      end(ending)
    } else if suspend {
      // The whole process group, as the terminal's Ctrl-Z: a `| jq` after the tool stops too.
      kill(0, SIGTSTP)
    }
  }

  /// What `key` does; an ending for the keys that end the session.
  private func apply(_ key: Key, to state: inout State) -> InteractiveEnding? {
    switch key {
    case .enter:
      // With nothing to select there is nothing to print: Enter waits for results.
      return state.screen.selectedItem.map(InteractiveEnding.accepted)
    case .escape, .control("c"), .control("g"):
      return .cancelled
    case .control("l"):
      state.renderer.invalidate()
    case .up, .control("p"):
      state.screen.moveSelection(by: -1)
    case .down, .control("n"):
      state.screen.moveSelection(by: 1)
    default:
      _ = state.screen.field.apply(key)
    }
    return nil
  }

  /// Sends the field's new text as the next keystroke, and records it; the reason when the
  /// recording cannot be written.
  private func send(_ text: String, line: Int) -> String? {
    // Handed to the pipeline's task (an AsyncStream, not pushed): this runs under the state's
    // lock, which the pipeline's events take to draw.
    keystrokes.yield(.keystroke(Keystroke(term: text), line: line))
    guard let recording else { return nil }
    let line = Keystroke(term: text, atMilliseconds: start.duration(to: clock.now).wholeMilliseconds).recordingLine
    do throws(OutputError) {
      try recording.write(line)
      return nil
    } catch .stopped {
      // A signal ends the session; the keystroke that could not be written is not a failure.
      return nil
    } catch {
      return "\(error)"
    }
  }

  private func draw(_ state: inout State) {
    guard !state.ended else { return }
    let frame = InteractiveView.frame(state.screen, size: state.renderer.size, budgetLeft: budgetLeft(&state))
    terminal.draw(state.renderer.render(frame))
  }

  /// The requests the rate limit still allows in the sliding window ending now, as RateLimiter
  /// counts them: a permit granted at `t` is in use until `t + window`.
  private func budgetLeft(_ state: inout State) -> Int? {
    guard let rateLimit else { return nil }
    let now = clock.now
    state.requestTimes.removeAll { $0.advanced(by: rateLimit.window) <= now }
    return max(0, rateLimit.permits - state.requestTimes.count)
  }
}
