// Search terms that are easy to send wrongly: URL delimiters, quotes, emoji, Japanese, and a
// decomposed accent. Shared by the tests that check a term reaches the server byte for byte.

/// Terms whose bytes must survive query encoding unchanged.
public enum AwkwardTerms {
  /// Each term once, in no particular order. None has leading, trailing or doubled spaces, so
  /// the pipeline's trimming leaves them as they are.
  public static let all = [
    "AC/DC & Queen+Bowie = 100% #1",
    "rock&media=software",
    "a+b c%20d %zz",
    "\"quoted\" 'single'",
    "back\\slash",
    "🎸 emoji 👍🏽",
    "宇多田ヒカル",
    "Beyonce\u{301}",  // decomposed (NFD): "e" then COMBINING ACUTE ACCENT
  ]
}
