// swift-tools-version: 6.0
// stream-search: a typeahead stream processor. No package dependencies: only the toolchain's
// Foundation, FoundationNetworking, Dispatch, Synchronization and Testing. SQLite's runtime library is
// opened at run time where present (the disk cache); no header or link library is needed to build.
import PackageDescription

let package = Package(
  name: "stream-search",
  // The first releases with Synchronization's Mutex and Atomic, which Streams is built on.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
    .library(name: "LineIO", targets: ["LineIO"]),
    .library(name: "Pipeline", targets: ["Pipeline"]),
    .library(name: "Catalog", targets: ["Catalog"]),
    .library(name: "ITunes", targets: ["ITunes"]),
    .library(name: "SQLiteStorage", targets: ["SQLiteStorage"]),
    .library(name: "RESP", targets: ["RESP"]),
    .library(name: "WebServer", targets: ["WebServer"]),
    .executable(name: "stream-search", targets: ["stream-search"]),
  ],
  targets: [
    // Operators, clocks and virtual time: no file descriptors, no threads of its own.
    .target(name: "Streams"),
    .target(name: "StreamsTesting", dependencies: ["Streams"]),
    // Lines in, bytes out: file descriptors, the line readers' thread, cancellation signals.
    .target(name: "LineIO"),
    // A small Redis client (RESP2 over non-blocking sockets): domain-free, for the workers on Redis.
    .target(name: "RESP", dependencies: ["LineIO"]),
    // The built-in catalog's bytes: a C target compiles them far faster than a Swift literal.
    .target(name: "CatalogData", exclude: ["build_catalog.py", "curated"]),
    // The pipeline core: sessions, merge, repository, events, and the ports SearchSource and
    // SharedStore. It reads the built-in catalog's records (an answer's item is a record).
    .target(name: "Pipeline", dependencies: ["Streams", "LineIO", "CatalogData"]),
    // Adapters behind the core's ports, each in a module of its own; the CLI wires them.
    .target(name: "Catalog", dependencies: ["Pipeline", "Streams", "CatalogData"]),
    .target(name: "ITunes", dependencies: ["Pipeline"]),
    .target(name: "SQLiteStorage", dependencies: ["Pipeline", "Streams"]),
    // Workers on Redis: sessions partitioned into shards, leases, fenced commits, shared answers.
    .target(name: "ScaleOut", dependencies: ["Pipeline", "Streams", "LineIO", "RESP"]),
    // Counters, gauges and histograms in the Prometheus text format: domain-free, no I/O.
    .target(name: "Metrics"),
    // epoll for the web server on Linux (Glibc's module lacks sys/epoll.h); empty elsewhere.
    .target(name: "CEpoll"),
    // HTTP/1.1 and WebSocket (RFC 6455) over non-blocking sockets on a thread of its own.
    .target(name: "WebServer", dependencies: ["Streams", "LineIO", "CEpoll"]),
    // Made-up look-alike items in any number, for tests and the benchmark only (never the default).
    .target(name: "CatalogFiller", dependencies: ["Pipeline", "Catalog", "StreamsTesting"]),
    .executableTarget(
      name: "stream-search",
      dependencies: [
        "Pipeline", "Catalog", "ITunes", "SQLiteStorage", "Streams", "LineIO", "RESP", "ScaleOut",
        "Metrics", "WebServer",
      ]
    ),
    // TestSupport for its pseudo-terminal child (the interactive section), its loopback server
    // (the network sections), the tool left blocked (signals) and its redis-server (scale-out).
    .executableTarget(
      name: "stream-search-bench",
      dependencies: [
        "Streams", "LineIO", "Pipeline", "Catalog", "SQLiteStorage", "CatalogFiller", "TestSupport", "RESP", "ScaleOut",
        "CatalogQueries", "WebServer", "CEpoll",
      ]
    ),
    .executableTarget(name: "StreamsDemo", dependencies: ["Streams"], path: "Examples/StreamsDemo"),
    .target(
      name: "TestSupport", dependencies: ["Streams", "StreamsTesting", "LineIO", "RESP"], path: "Tests/TestSupport"),
    // The project's query set: checked by PipelineTests, typed through the binary by the benchmark.
    .target(name: "CatalogQueries", dependencies: ["Pipeline"], path: "Tests/CatalogQueries"),
    .testTarget(name: "MetricsTests", dependencies: ["Metrics"]),
    .testTarget(name: "LineIOTests", dependencies: ["LineIO", "TestSupport"]),
    .testTarget(name: "RESPTests", dependencies: ["RESP", "LineIO", "TestSupport"]),
    .testTarget(
      name: "ScaleOutTests", dependencies: ["ScaleOut", "RESP", "Pipeline", "Streams", "LineIO", "TestSupport"]),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting", "LineIO", "TestSupport"]),
    .testTarget(name: "WebServerTests", dependencies: ["WebServer", "Streams", "StreamsTesting", "TestSupport"]),
    .testTarget(
      name: "PipelineTests",
      dependencies: [
        "Pipeline", "Catalog", "ITunes", "SQLiteStorage", "Streams", "StreamsTesting", "LineIO", "TestSupport",
        "CatalogFiller", "CatalogQueries",
      ]
    ),
    .testTarget(
      name: "CommandLineTests",
      dependencies: ["stream-search", "Pipeline", "Streams", "LineIO", "TestSupport", "Metrics"]
    ),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: ["Pipeline", "SQLiteStorage", "Streams", "StreamsTesting", "TestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
