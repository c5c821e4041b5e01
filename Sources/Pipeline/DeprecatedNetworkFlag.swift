// Reads a source's deprecated `isNetwork`, the default of `isRemote` and `performsRealIO` for
// one release, without a deprecation warning in this module: a plain read would warn, and the
// project builds with none. The read goes through a conformance that is itself deprecated,
// found by a dynamic cast, which the compiler does not flag.

/// The deprecated `SearchSource.isNetwork` of a source.
enum DeprecatedNetworkFlag {
  /// What `source` says in its deprecated `isNetwork` (false unless it says otherwise).
  static func isNetwork(_ source: some SearchSource) -> Bool {
    guard let reader = (Reader() as Any) as? any NetworkFlagReading else { return false }
    return reader.isNetwork(source)
  }

  struct Reader {}
}

/// Reads the deprecated flag; only the deprecated conformance below implements it.
protocol NetworkFlagReading {
  func isNetwork(_ source: some SearchSource) -> Bool
}

@available(*, deprecated)
extension DeprecatedNetworkFlag.Reader: NetworkFlagReading {
  func isNetwork(_ source: some SearchSource) -> Bool { source.isNetwork }
}
