// Streams on its own, without the search domain: a typist's keystrokes are debounced, made
// distinct and looked up with cancel-previous, in virtual time. Built by `swift build`, so it
// cannot rot; run it with `swift run StreamsDemo`.
import Streams

/// Keystrokes as (milliseconds, text): the field's whole text after each key.
let keystrokes: [(Int64, String)] = [
  (0, "s"), (90, "sw"), (170, "swi"), (260, "swif"), (340, "swift"),  // pause: "swift" settles at 640
  (700, "swift "), (780, "swift c"), (850, "swift co"), (930, "swift con"),  // settles at 1230,
  (1300, "swift conc"),  // ...whose lookup (400 ms) is cancelled by this burst, which settles at 1600
  (2500, "swift conc"),  // the same text again: distinct drops it
]

let runner = VirtualTimeRunner()
let clock = runner.clock
let (texts, typist) = AsyncStream.makeStream(of: String.self)

/// A slow lookup: answers after 400 ms of virtual time; cancellation stops it.
@Sendable func lookUp(_ text: String) async -> String {
  do {
    try await clock.sleep(for: .milliseconds(400))
    return "\(text.count) letters"
  } catch {
    return "cancelled"
  }
}

let pipeline = runner.start {
  let events =
    texts
    .debounce(for: .milliseconds(300), clock: clock)
    .removeDuplicates()
    .switchMap { (text: String, emit: SwitchMapEmitter<String>) in emit(await lookUp(text)) }
  for try await event in events {
    switch event {
    case .started(let text): print("\(clock.now)  look up \"\(text)\"")
    case .output(let answer): print("\(clock.now)  answer: \(answer)")
    case .cancelled(let text, by: let newer): print("\(clock.now)  \"\(text)\" cancelled by \"\(newer)\"")
    }
  }
}

for (milliseconds, text) in keystrokes {
  runner.advance(to: .milliseconds(milliseconds))
  typist.yield(text)
}
typist.finish()
do {
  try runner.finish(pipeline)
  print("\(clock.now)  done; the whole session took no real time")
} catch {
  print("the demo stalled: \(error)")
}
