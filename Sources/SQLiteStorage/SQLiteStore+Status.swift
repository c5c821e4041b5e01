// How the store's status changes after it opened: turned off once, with one line saying why, by a
// failure or a caller; and a start that found the file locked, tried again as the store is used
// until it opens or gives up.
import Pipeline

extension SQLiteStore {
  /// Returns once a turn-off under way has been reported: a caller that saw the store off (the
  /// run's summary, then the exit) must not outrun the line that says why.
  func turnedOff() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let waiting = state.withLock { state -> Bool in
        guard state.turningOff else { return false }
        state.turnOffWaiters.append(continuation)
        return true
      }
      if !waiting { continuation.resume() }
    }
  }

  /// Turns the store off after `error`, reporting it once; a busy file only misses this once.
  func fail(_ error: SQLiteError) {
    guard !error.isBusy else { return }
    turnOff(
      reason: error.isDamage ? "\(path) is damaged or not a database: \(error)" : "cannot write \(path): \(error)")
  }

  func turnOff(reason: String) {
    let first = state.withLock { state -> Bool in
      if case .off = state.status { return false }
      state.status = .off(reason: reason)
      state.turningOff = true
      return true
    }
    guard first else { return }
    // Said before the writer stops: stopping answers the flushes that wait, and the run may end
    // right after them.
    report(Self.offLine(reason))
    writer.stop()
    readers.drain()
    budgets.drain()
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.turningOff = false
      defer { state.turnOffWaiters.removeAll() }
      return state.turnOffWaiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Whether reads and writes may go ahead now: on, or starting and opened by this call.
  func isUsable() -> Bool {
    switch status {
    case .on: return true
    case .off: return false
    case .starting:
      retryOpening()
      return status == .on
    }
  }

  func checkUsableForBudget() throws(SharedStoreFailure) {
    switch status {
    case .on: return
    case .off: throw .off
    case .starting:
      retryOpening()
      switch status {
      case .on: return
      case .off: throw .off
      case .starting: throw .busy
      }
    }
  }

  func budgetFailure(_ error: SQLiteError) -> SharedStoreFailure {
    guard !error.isBusy else { return .busy }
    fail(error)
    return .off
  }

  /// Tries to open the file again, by one caller at a time and at most every ``startingRetry``
  /// ms, without waiting inside SQLite; gives up after ``startingPatience``.
  func retryOpening() {
    let now = wallClock.millisecondsSinceEpoch
    let due = state.withLock { state -> Bool in
      guard state.status == .starting, !state.attempting, now - state.lastAttempt >= Self.startingRetry else {
        return false
      }
      state.attempting = true
      state.lastAttempt = now
      return true
    }
    guard due else { return }
    var outcome: SharedStoreStatus
    do throws(StoreOpenError) {
      try StoreFile.prepare(path: path, busyTimeout: 0)
      outcome = .on
    } catch {
      outcome = Self.status(after: error, path: path)
    }
    let (opened, givenUp) = state.withLock { state -> (Bool, Bool) in
      state.attempting = false
      if outcome == .starting, now - state.startingSince >= Self.startingPatience {
        return (false, true)
      }
      guard state.status == .starting, outcome == .on else { return (false, false) }
      state.status = .on
      return (true, false)
    }
    if opened { writer.start(store: self) }
    if givenUp {
      outcome = .off(reason: "\(path) stayed locked by another process for \(Self.startingPatience / 1_000) s")
    }
    if case .off(let reason) = outcome { turnOff(reason: reason) }
  }

  /// What an opening that failed with `error` leaves the store as.
  static func status(after error: StoreOpenError, path: String) -> SharedStoreStatus {
    switch error {
    case .busy: .starting
    case .refused(let refusal): .off(reason: "\(path) is not usable: \(refusal)")
    case .failed(let reason): .off(reason: "cannot use \(path): \(reason)")
    }
  }

  static func offLine(_ reason: String) -> String {
    "disk cache off: \(reason); answers are kept in memory and the rate budget in this process only"
  }
}
