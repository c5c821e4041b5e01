// Name patterns of the generated catalog: how artists, songs, albums, films and podcasts are
// named, by combining the word lists with a seeded generator.
import Pipeline
import StreamsTesting

/// Builds one generated name per call from the generator's next numbers.
enum CatalogNames {
  typealias Words = CatalogWords

  /// A person: "First Last".
  static func personName(_ random: inout SplitMix64) -> String {
    "\(random.pick(Words.firstNames)) \(random.pick(Words.lastNames))"
  }

  /// A solo artist or a band, in the shapes bands are usually named.
  static func artistName(_ random: inout SplitMix64) -> String {
    switch random.below(100) {
    case 0..<45: personName(&random)
    case 45..<60: "The \(random.pick(Words.pluralNouns))"
    case 60..<72: "\(random.pick(Words.adjectives)) \(random.pick(Words.pluralNouns))"
    case 72..<80: "\(personName(&random)) & the \(random.pick(Words.pluralNouns))"
    case 80..<88: "\(random.pick(Words.nouns)) \(random.pick(Words.nouns))"
    case 88..<94: "\(random.pick(Words.firstNames)) \(random.pick(Words.places))"
    default: "\(random.pick(Words.lastNames)) & \(random.pick(Words.lastNames))"
    }
  }

  /// A song title.
  static func songTitle(_ random: inout SplitMix64) -> String {
    switch random.below(100) {
    case 0..<28: "\(random.pick(Words.adjectives)) \(random.pick(Words.nouns))"
    case 28..<38: random.pick(Words.nouns)
    case 38..<50: "\(random.pick(Words.verbs)) \(random.pick(Words.prepositions)) the \(random.pick(Words.nouns))"
    case 50..<58: "\(random.pick(Words.nouns)) of \(random.pick(Words.nouns))"
    case 58..<66: "Don't \(random.pick(Words.verbs))"
    case 66..<74: "\(random.pick(Words.places)) \(random.pick(Words.nouns))"
    case 74..<82: "The \(random.pick(Words.adjectives)) \(random.pick(Words.nouns))"
    case 82..<88: "\(random.pick(Words.adjectives)) \(random.pick(Words.nouns)) (\(random.pick(remixes)))"
    case 88..<94: "\(random.pick(Words.verbs)) \(random.pick(Words.verbs))"
    default: "\(random.pick(Words.nouns)) in \(random.pick(Words.places))"
    }
  }

  /// An album title.
  static func albumTitle(_ random: inout SplitMix64) -> String {
    switch random.below(100) {
    case 0..<30: "\(random.pick(Words.adjectives)) \(random.pick(Words.nouns))"
    case 30..<45: random.pick(Words.nouns)
    case 45..<55: "\(random.pick(Words.places)) Sessions"
    case 55..<70: "The \(random.pick(Words.nouns)) Tapes"
    case 70..<85: "\(random.pick(Words.nouns)) & \(random.pick(Words.nouns))"
    default: "\(random.pick(Words.adjectives)) \(random.pick(Words.nouns)), Vol. \(random.within(1...3))"
    }
  }

  /// A film title.
  static func movieTitle(_ random: inout SplitMix64) -> String {
    switch random.below(100) {
    case 0..<25: "The \(random.pick(Words.adjectives)) \(random.pick(Words.nouns))"
    case 25..<40: "\(random.pick(Words.nouns)) of the \(random.pick(Words.nouns))"
    case 40..<50: "\(random.pick(Words.adjectives)) \(random.pick(Words.places))"
    case 50..<60: "\(random.pick(Words.nouns)) \(random.pick(Words.romanNumerals))"
    case 60..<70: "\(random.pick(Words.verbs)) \(random.pick(Words.prepositions)) \(random.pick(Words.places))"
    case 70..<80: "The \(random.pick(Words.nouns))"
    case 80..<90: "A \(random.pick(Words.nouns)) in \(random.pick(Words.places))"
    default: "\(random.pick(Words.firstNames)) & \(random.pick(Words.firstNames))"
    }
  }

  /// A podcast title.
  static func podcastTitle(_ random: inout SplitMix64) -> String {
    let topic = random.pick(Words.podcastTopics)
    let form = random.pick(Words.podcastForms)
    return switch random.below(100) {
    case 0..<30: "The \(topic) \(form)"
    case 30..<50: "\(topic) \(form)"
    case 50..<65: "\(random.pick(Words.adjectives)) \(topic)"
    case 65..<80: "\(random.pick(Words.firstNames)) & \(random.pick(Words.firstNames)) \(form)"
    case 80..<90: "\(random.pick(Words.lastNames)) on \(topic)"
    default: "\(random.pick(Words.nouns)) & \(topic)"
    }
  }

  /// Who makes a podcast: a person or a small network.
  static func podcastHost(_ random: inout SplitMix64) -> String {
    random.chance(60)
      ? personName(&random)
      : "\(random.pick(Words.adjectives)) \(random.pick(Words.nouns)) \(random.pick(networks))"
  }

  private static let remixes = ["Remix", "Acoustic", "Live", "Radio Edit", "Demo", "Extended Mix"]
  private static let networks = ["Media", "Audio", "Studios", "Network", "Productions"]
}
