// The test helpers that users of the Streams library also need (Recorder, waiting for sleepers,
// a runner per test) live in the StreamsTesting product; every test target gets them from here.
@_exported import StreamsTesting
