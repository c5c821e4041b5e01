// Which source a run asks, built from the options on the run's clock.
import Catalog
import Foundation
import ITunes
import Pipeline
import SQLiteStorage
import Streams

/// Why the source cannot be built: a catalog file that cannot be read.
struct SourceSetupError: Error {
  let message: String
}

/// Builds sources and the pipeline configuration from the command-line options.
struct RunSetup: Sendable {
  let options: CommandLineOptions
  /// The user's catalog, loaded once up front so a bad file fails before anything runs.
  let catalogItems: [SearchItem]?
  /// The disk tier for a network source; nil for the catalog or `--cache-dir none`.
  let store: SQLiteStore?

  /// Loads what the options name; throws ``SourceSetupError`` when the catalog file is unusable.
  /// A disk cache that cannot be used is one warning on `log`, and the run goes on without it.
  init(options: CommandLineOptions, log: Log) throws(SourceSetupError) {
    self.options = options
    store = Self.cacheDirectory(for: options).map { directory in
      SQLiteStore.open(
        directory: directory, capacity: options.pipeline.cacheCapacity, maxBytes: options.cacheMaxBytes,
        wallClock: SystemWallClock()
      ) { log.warning($0) }
    }
    if let path = options.catalogPath {
      do {
        catalogItems = try CatalogSource.load(contentsOf: path)
      } catch {
        throw SourceSetupError(message: "cannot use catalog '\(path)': \(error)")
      }
    } else {
      catalogItems = nil
    }
  }

  /// The source the options ask for, waiting on `clock` where it simulates latency.
  func source(clock: any Clock<Duration>) -> any SearchSource {
    switch options.source {
    case .catalog:
      if let catalogItems {
        return CatalogSource(items: catalogItems, latency: options.latency, clock: clock)
      }
      return CatalogSource(latency: options.latency, clock: clock)
    case .itunes:
      return ITunesSource(requestTimeout: options.pipeline.searchTimeout)
    case .url(let url):
      return ITunesSource(baseURL: url, requestTimeout: options.pipeline.searchTimeout)
    }
  }

  /// The disk cache's directory, for a network source only (the catalog is already local), and
  /// not with `--cache-size 0`, which turns caching off.
  static func cacheDirectory(
    for options: CommandLineOptions, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    guard options.source != .catalog, options.pipeline.cacheCapacity > 0 else { return nil }
    switch options.cacheDirectory {
    case .none: return nil
    case .path(let path): return path
    case .standard:
      guard !options.replay else { return nil }
      if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/stream-search" }
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      return home + "/.cache/stream-search"
    }
  }

  /// The pipeline configuration the options ask for, with the disk tier opened for it; `log`
  /// receives verbose diagnostics.
  func configuration(log: Log) -> PipelineConfiguration {
    var configuration = options.pipeline
    configuration.store = store
    if log.level >= .verbose {
      configuration.log = { message in log.diagnostic(message.description) }
    }
    return configuration
  }
}
