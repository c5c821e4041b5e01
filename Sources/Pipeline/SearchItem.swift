// One result of a search, in the shape of an iTunes Search API result.

/// One result: a song, a movie, a podcast…, decoded from an iTunes Search API result.
///
/// Every field but `id` is optional, because iTunes omits what does not apply; unknown fields
/// are ignored. `id` is the first present of `trackId`, `collectionId` and `artistId`.
/// Decoding is lenient (SearchItem+Decoding.swift): a field of the wrong type reads as nil.
/// Encoding writes our own shape (with `id` and `artworkUrl`), which decodes back to the same item.
public struct SearchItem: Sendable, Hashable, Codable {
  /// The identifier: `trackId`, else `collectionId`, else `artistId`.
  public var id: Int
  public var wrapperType: String?
  public var kind: String?
  public var trackId: Int?
  public var collectionId: Int?
  public var artistId: Int?
  public var trackName: String?
  public var collectionName: String?
  public var artistName: String?
  public var trackViewUrl: String?
  public var collectionViewUrl: String?
  public var previewUrl: String?
  public var artworkUrl100: String?
  /// The largest artwork URL present (artworkUrl600, 512, 100, 60, 30, in that order).
  public var artworkUrl: String?
  public var releaseDate: String?
  public var primaryGenreName: String?
  public var trackTimeMillis: Int?
  /// `trackPrice`, else `collectionPrice`, else `price`.
  public var price: Double?
  public var currency: String?
  public var country: String?
  public var feedUrl: String?
  /// How popular the item is in an offline catalog (higher first); nil from iTunes.
  public var popularity: Int?

  /// Creates an item; every field but `id` may be left out.
  public init(
    id: Int, wrapperType: String? = nil, kind: String? = nil, trackId: Int? = nil,
    collectionId: Int? = nil, artistId: Int? = nil, trackName: String? = nil,
    collectionName: String? = nil, artistName: String? = nil, trackViewUrl: String? = nil,
    collectionViewUrl: String? = nil, previewUrl: String? = nil, artworkUrl100: String? = nil,
    artworkUrl: String? = nil, releaseDate: String? = nil, primaryGenreName: String? = nil,
    trackTimeMillis: Int? = nil, price: Double? = nil, currency: String? = nil,
    country: String? = nil, feedUrl: String? = nil, popularity: Int? = nil
  ) {
    self.id = id
    self.wrapperType = wrapperType
    self.kind = kind
    self.trackId = trackId
    self.collectionId = collectionId
    self.artistId = artistId
    self.trackName = trackName
    self.collectionName = collectionName
    self.artistName = artistName
    self.trackViewUrl = trackViewUrl
    self.collectionViewUrl = collectionViewUrl
    self.previewUrl = previewUrl
    self.artworkUrl100 = artworkUrl100
    self.artworkUrl = artworkUrl
    self.releaseDate = releaseDate
    self.primaryGenreName = primaryGenreName
    self.trackTimeMillis = trackTimeMillis
    self.price = price
    self.currency = currency
    self.country = country
    self.feedUrl = feedUrl
    self.popularity = popularity
  }

  /// The name to show: the track's, else the collection's, else the artist's.
  public var title: String? { trackName ?? collectionName ?? artistName }
}
