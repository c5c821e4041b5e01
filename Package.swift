// swift-tools-version: 6.0
// stream-search: a typeahead stream processor. No package dependencies: only the toolchain's
// Foundation, FoundationNetworking, Dispatch, Synchronization and Testing.
import PackageDescription

let package = Package(
  name: "stream-search",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Streams", targets: ["Streams"]),
    .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
    .library(name: "Pipeline", targets: ["Pipeline"]),
    .executable(name: "stream-search", targets: ["stream-search"]),
  ],
  targets: [
    .target(name: "Streams"),
    .target(name: "StreamsTesting", dependencies: ["Streams"]),
    .target(name: "Pipeline", dependencies: ["Streams"]),
    .executableTarget(name: "stream-search", dependencies: ["Pipeline"]),
    .executableTarget(name: "stream-search-bench", dependencies: ["Streams", "Pipeline"]),
    .executableTarget(name: "StreamsDemo", dependencies: ["Streams"], path: "Examples/StreamsDemo"),
    .target(name: "TestSupport", dependencies: ["StreamsTesting"], path: "Tests/TestSupport"),
    .testTarget(name: "StreamsTests", dependencies: ["Streams", "StreamsTesting", "TestSupport"]),
    .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Streams", "TestSupport"]),
    .testTarget(
      name: "CommandLineTests",
      dependencies: ["stream-search", "Pipeline", "TestSupport"]
    ),
    .testTarget(name: "ReliabilityTests", dependencies: ["Pipeline", "Streams", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
