// The live side of the interactive screen: takes keys from the key reader and events from the
// pipeline, updates the state under one lock, and draws the difference. Each change of the
// field's text becomes the next keystroke of the pipeline's input (and of the recording).
import Foundation
import LineIO
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
/// Calls may come from any thread (the key reader, the pipeline's sink, signal handlers). Each
/// takes the lock only to change the state and decide what follows: the frame's bytes, the
/// keystroke for the pipeline, the recording's line. Those are queued under the lock, in the
/// order decided, and carried out with it released by whichever thread finds nobody carrying
/// them out, so frames never interleave or overtake each other, and no write, yield or wait
/// happens under the lock. After the first ending, nothing more is drawn or sent.
final class InteractiveController: Sendable {
  /// What a decision leads to, carried out in order with the lock released.
  private enum Effect {
    /// Bytes of a frame for the terminal.
    case draw([UInt8])
    /// The field's new text, as the next line of the pipeline's input and of the recording.
    case send(Keystroke, line: Int)
  }

  private struct State {
    var screen = InteractiveState()
    var renderer: ScreenRenderer
    var requestTimes: [ContinuousClock.Instant] = []
    var ended = false
    /// Keystrokes sent so far: each is the next line of the pipeline's input.
    var keystrokesSent = 0
    /// Effects decided and not yet carried out.
    var effects = DeliveryQueue<Effect>()
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
    let now = clock.now
    decide { state in draw(&state, now: now) }
  }

  /// The window changed size: redraw everything at the new size.
  func resize() {
    let size = terminal.size
    let now = clock.now
    decide { state in
      state.renderer.resize(to: size)
      draw(&state, now: now)
    }
  }

  /// The process continued after a stop: take the terminal again and draw every row, at the
  /// terminal's size now.
  func resume() {
    terminal.resume()
    resize()
  }

  /// One request reached the source (the pipeline's `requestSent` observation).
  func noteRequest() {
    let now = clock.now
    state.withLock { state in
      state.screen.requests += 1
      if rateLimit != nil { state.requestTimes.append(now) }
    }
  }

  /// Takes one pipeline event and draws its effect.
  func show(_ event: SearchEvent) {
    let now = clock.now
    decide { state in
      guard !state.ended else { return }
      state.screen.apply(event)
      draw(&state, now: now)
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
    let now = clock.now
    var suspend = false
    var ending: InteractiveEnding?
    decide { state in
      guard !state.ended else { return }
      let before = state.screen.field.text
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
      guard ending == nil else { return }
      if text != before {
        state.keystrokesSent += 1
        let keystroke = Keystroke(term: text, atMilliseconds: start.duration(to: now).wholeMilliseconds)
        state.effects.enqueue(.send(keystroke, line: state.keystrokesSent))
      }
      draw(&state, now: now)
    }
    if let ending {
      end(ending)
    } else if suspend {
      // The whole process group, as the terminal's Ctrl-Z: a `| jq` after the tool stops too.
      kill(0, SIGTSTP)
    }
  }

  /// Changes the state with `change`, which queues what follows, then carries out every queued
  /// effect in order with the lock released, unless another thread is already doing so.
  private func decide(_ change: (inout State) -> Void) {
    var next = state.withLock { state -> Effect? in
      guard state.effects.claim() else {
        change(&state)
        return nil
      }
      change(&state)
      return state.effects.next()
    }
    while let effect = next {
      carryOut(effect)
      next = state.withLock { $0.effects.next() }
    }
  }

  private func carryOut(_ effect: Effect) {
    switch effect {
    case .draw(let bytes):
      terminal.draw(bytes)
    case .send(let keystroke, let line):
      keystrokes.yield(.keystroke(Keystroke(term: keystroke.term), line: line))
      if let failure = record(keystroke) { end(.recordingFailed(failure)) }
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

  /// Writes `keystroke` to the recording, if there is one; the reason when it cannot be written.
  private func record(_ keystroke: Keystroke) -> String? {
    guard let recording else { return nil }
    do throws(OutputError) {
      try recording.write(keystroke.recordingLine)
      return nil
    } catch .stopped {
      // A signal ends the session; the keystroke that could not be written is not a failure.
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// Queues the frame for the state as it is now.
  private func draw(_ state: inout State, now: ContinuousClock.Instant) {
    guard !state.ended else { return }
    let budget = budgetLeft(&state, now: now)
    let frame = InteractiveView.frame(state.screen, size: state.renderer.size, budgetLeft: budget)
    let bytes = state.renderer.render(frame)
    if !bytes.isEmpty { state.effects.enqueue(.draw(bytes)) }
  }

  /// The requests the rate limit still allows in the sliding window ending `now`, as RateLimiter
  /// counts them: a permit granted at `t` is in use until `t + window`.
  private func budgetLeft(_ state: inout State, now: ContinuousClock.Instant) -> Int? {
    guard let rateLimit else { return nil }
    state.requestTimes.removeAll { $0.advanced(by: rateLimit.window) <= now }
    return max(0, rateLimit.permits - state.requestTimes.count)
  }
}
