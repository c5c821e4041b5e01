// `--cache-dir` and `--cache-max-bytes`: what they parse to, and which directory a run uses for
// which source, mode and environment.
import Foundation
import Testing

@testable import stream_search

@Suite struct CacheDirectoryOptionTests {
  @Test func cacheDirAndMaxBytesParse() throws {
    #expect(try searchOptions(["--cache-dir", "/tmp/c"]).cacheDirectory == .path("/tmp/c"))
    #expect(try searchOptions(["--cache-dir", "none"]).cacheDirectory == CommandLineOptions.CacheDirectory.none)
    #expect(try searchOptions([]).cacheMaxBytes == 64 << 20)
    #expect(try searchOptions(["--cache-max-bytes", "512K"]).cacheMaxBytes == 512 << 10)
    #expect(try searchOptions(["--cache-max-bytes", "2g"]).cacheMaxBytes == 2 << 30)
    #expect(try searchOptions(["--cache-max-bytes", "1000"]).cacheMaxBytes == 1_000)
    for bad in ["0", "M", "1.5M", "-1", "12T", "99999999999999999999"] {
      #expect(throws: UsageError.self, "\(bad)") {
        try CommandLineParser.parse(["--cache-max-bytes", bad], stdoutIsTerminal: false)
      }
    }
  }

  @Test func theDirectoryFollowsTheSourceTheModeAndTheEnvironment() throws {
    let home = ["HOME": "/home/me"]
    let xdg = ["HOME": "/home/me", "XDG_CACHE_HOME": "/var/cache/me"]
    let itunes = try searchOptions(["--source", "itunes"])
    #expect(RunSetup.cacheDirectory(for: itunes, environment: home) == "/home/me/.cache/stream-search")
    #expect(RunSetup.cacheDirectory(for: itunes, environment: xdg) == "/var/cache/me/stream-search")
    // A relative XDG_CACHE_HOME is invalid by the XDG rules: ignored.
    #expect(
      RunSetup.cacheDirectory(for: itunes, environment: ["HOME": "/h", "XDG_CACHE_HOME": "rel"])
        == "/h/.cache/stream-search")
    #expect(RunSetup.cacheDirectory(for: try searchOptions([]), environment: home) == nil, "the catalog")
    #expect(
      RunSetup.cacheDirectory(for: try searchOptions(["--source", "itunes", "--replay"]), environment: home)
        == nil)
    let replayWithDir = try searchOptions(["--source", "itunes", "--replay", "--cache-dir", "/d"])
    #expect(RunSetup.cacheDirectory(for: replayWithDir, environment: home) == "/d")
    #expect(
      RunSetup.cacheDirectory(
        for: try searchOptions(["--source", "itunes", "--cache-dir", "none"]), environment: home) == nil)
    #expect(
      RunSetup.cacheDirectory(
        for: try searchOptions(["--source", "itunes", "--cache-size", "0"]), environment: home) == nil)
  }
}
