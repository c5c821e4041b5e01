// swift-tools-version: 6.0
// stream-search: a typeahead stream processor. No package dependencies: only the toolchain's
// Foundation, FoundationNetworking, Dispatch, Synchronization and Testing. SQLite's runtime library is
// opened at run time where present (the disk cache); no header or link library is needed to build.
import PackageDescription

let package = Package(
  name: "stream-search",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
    .library(name: "Pipeline", targets: ["Pipeline"]),
    .library(name: "RESP", targets: ["RESP"]),
    .executable(name: "stream-search", targets: ["stream-search"]),
  ],
  targets: [
    .target(name: "Streams"),
    .target(name: "StreamsTesting", dependencies: ["Streams"]),
    // A small Redis client (RESP2 over non-blocking sockets): domain-free, for the workers on Redis.
    .target(name: "RESP", dependencies: ["Streams"]),
    // Workers on Redis: sessions partitioned into shards, leases, fenced commits, shared answers.
    .target(name: "ScaleOut", dependencies: ["Pipeline", "Streams", "RESP"]),
    // The built-in catalog's bytes: a C target compiles them far faster than a Swift literal.
    .target(name: "CatalogData", exclude: ["build_catalog.py", "curated"]),
    .target(name: "Pipeline", dependencies: ["Streams", "CatalogData"]),
    // Made-up look-alike items in any number, for tests and the benchmark only (never the default).
    .target(name: "CatalogFiller", dependencies: ["Pipeline", "StreamsTesting"]),
    .executableTarget(name: "stream-search", dependencies: ["Pipeline", "Streams", "RESP", "ScaleOut"]),
    // TestSupport for its pseudo-terminal child (the interactive section), its loopback server
    // (the network sections), the tool left blocked (signals) and its redis-server (scale-out).
    .executableTarget(
      name: "stream-search-bench",
      dependencies: ["Streams", "Pipeline", "CatalogFiller", "TestSupport", "RESP", "ScaleOut", "CatalogQueries"]
    ),
    .executableTarget(name: "StreamsDemo", dependencies: ["Streams"], path: "Examples/StreamsDemo"),
    .target(name: "TestSupport", dependencies: ["Streams", "StreamsTesting", "RESP"], path: "Tests/TestSupport"),
    // The project's query set: checked by PipelineTests, typed through the binary by the benchmark.
    .target(name: "CatalogQueries", dependencies: ["Pipeline"], path: "Tests/CatalogQueries"),
    .testTarget(name: "RESPTests", dependencies: ["RESP", "Streams", "TestSupport"]),
    .testTarget(name: "ScaleOutTests", dependencies: ["ScaleOut", "RESP", "Pipeline", "Streams", "TestSupport"]),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting", "TestSupport"]),
    .testTarget(
      name: "PipelineTests",
      dependencies: ["Pipeline", "Streams", "StreamsTesting", "TestSupport", "CatalogFiller", "CatalogQueries"]
    ),
    .testTarget(
      name: "CommandLineTests",
      dependencies: ["stream-search", "Pipeline", "Streams", "TestSupport"]
    ),
    .testTarget(
      name: "ReliabilityTests", dependencies: ["Pipeline", "Streams", "StreamsTesting", "TestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
