// swift-tools-version: 6.0
// An app's view-model tests written against the Streams library as a user would: a package of
// its own that depends on this repository by path. `.ci/run` builds it and runs its tests.
import Foundation
import PackageDescription

// The repository two levels up. A path dependency's identity is its folder's name, which is
// whatever the clone was called, so it is read here rather than written out.
let repository = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let streamSearch = repository.lastPathComponent

let package = Package(
  name: "ViewModelTesting",
  // The first releases with Synchronization's Mutex and Atomic, which Streams is built on.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(path: repository.path)],
  targets: [
    .target(name: "ViewModelTesting", dependencies: [.product(name: "Streams", package: streamSearch)]),
    .testTarget(
      name: "ViewModelTestingTests",
      dependencies: ["ViewModelTesting", .product(name: "StreamsTesting", package: streamSearch)]
    ),
  ],
  swiftLanguageModes: [.v6]
)
