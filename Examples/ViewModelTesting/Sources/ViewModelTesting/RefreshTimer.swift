// A timer that never ends by itself: it refreshes every period until it is stopped, as a
// dashboard's auto-refresh does. Tests must be able to run it without hanging.

/// Calls `refresh` every `period` on `clock` until ``stop()`` or cancellation.
public final class RefreshTimer: Sendable {
  private let task: Task<Void, Never>

  /// Starts the timer. The first refresh comes one period from now.
  public init(
    period: Duration, clock: any Clock<Duration>, refresh: @escaping @Sendable () async -> Void
  ) {
    task = Task {
      while true {
        do { try await clock.sleep(for: period) } catch { return }
        await refresh()
      }
    }
  }

  /// Stops the timer; a refresh in progress completes.
  public func stop() { task.cancel() }
}
