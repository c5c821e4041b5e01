// The kinds of thing a search asks for, and how each maps onto the iTunes Search API.

/// A kind of media a search asks for; one search fans out to one request per category.
///
/// `music`, `movies` and `podcasts` are the defaults; the others are the rest of iTunes' media.
public enum Category: String, CaseIterable, Sendable, Hashable, Codable {
  case music, movies, podcasts, musicVideo, audiobook, shortFilm, tvShow, software, ebook

  /// The categories searched when none are named.
  public static let defaults: [Category] = [.music, .movies, .podcasts]

  /// The iTunes `media` parameter.
  public var media: String {
    switch self {
    case .music: "music"
    case .movies: "movie"
    case .podcasts: "podcast"
    case .musicVideo: "musicVideo"
    case .audiobook: "audiobook"
    case .shortFilm: "shortFilm"
    case .tvShow: "tvShow"
    case .software: "software"
    case .ebook: "ebook"
    }
  }

  /// The iTunes `entity` parameter: the kind of result wanted within the media.
  public var entity: String {
    switch self {
    case .music: "song"
    case .movies: "movie"
    case .podcasts: "podcast"
    case .musicVideo: "musicVideo"
    case .audiobook: "audiobook"
    case .shortFilm: "shortFilm"
    case .tvShow: "tvEpisode"
    case .software: "software"
    case .ebook: "ebook"
    }
  }

  /// The category of an iTunes result, from its `kind` (or `wrapperType` when it has no kind);
  /// used to split a single `media=all` answer into categories. Nil when it fits none.
  public init?(kind: String?, wrapperType: String?) {
    switch kind ?? wrapperType {
    case "song", "album", "track", "collection", "artist", "mix": self = .music
    case "feature-movie", "movie": self = .movies
    case "podcast", "podcast-episode": self = .podcasts
    case "music-video": self = .musicVideo
    case "audiobook": self = .audiobook
    case "tv-episode": self = .tvShow
    case "software", "software-package", "mac-software": self = .software
    case "ebook": self = .ebook
    default: return nil
    }
  }

  /// Hashes the category's place in its declaration, not its name: categories key every
  /// answer's items, and hashing the name was most of the cost of each lookup.
  public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

  /// The category's place in its declaration.
  var ordinal: Int {
    switch self {
    case .music: 0
    case .movies: 1
    case .podcasts: 2
    case .musicVideo: 3
    case .audiobook: 4
    case .shortFilm: 5
    case .tvShow: 6
    case .software: 7
    case .ebook: 8
    }
  }

  /// Parses a category by its name (`music`, `movies`, `podcasts`, `musicVideo`, …), ignoring
  /// case; the iTunes media names (`movie`, `podcast`) are accepted too.
  public init?(name: String) {
    let lowered = name.lowercased()
    if let match = Category.allCases.first(where: {
      $0.rawValue.lowercased() == lowered || $0.media.lowercased() == lowered
    }) {
      self = match
    } else {
      return nil
    }
  }
}
