// What other threads ask of the event loop, queued under a lock and carried out on its thread.
import Synchronization

enum LoopCommand: Sendable {
  /// A handler's response for connection `id`.
  case respond(UInt64, HTTPResponse)
  /// A WebSocket's outbox has frames or a close request for the loop to take.
  case socketUpdate(UInt64)
  /// A WebSocket handler caught up: read its client again.
  case resumeReading(UInt64)
  /// Connection `id`'s timer of generation `UInt64` is due.
  case timer(UInt64, generation: UInt64)
  /// Stop: accept no more, close what is open.
  case stop
  /// The stop's grace is over: close what is left.
  case stopGraceOver
}

/// The queue of commands, and whether the loop has been woken for them already.
struct LoopCommandQueue {
  var commands: [LoopCommand] = []
  var wakePending = false
  var ended = false
  var stopWaiters: [CheckedContinuation<Void, Never>] = []

  /// Queues `command`; true when the caller must wake the loop (after the lock).
  mutating func post(_ command: LoopCommand) -> Bool {
    if ended { return false }
    commands.append(command)
    if wakePending { return false }
    wakePending = true
    return true
  }

  /// Takes every queued command.
  mutating func take() -> [LoopCommand] {
    wakePending = false
    let taken = commands
    commands = []
    return taken
  }

  /// The loop has ended: the stop waiters, to resume after the lock.
  mutating func end() -> [CheckedContinuation<Void, Never>] {
    ended = true
    commands = []
    let waiters = stopWaiters
    stopWaiters = []
    return waiters
  }
}
