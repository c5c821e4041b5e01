// One result of a search, in the shape of an iTunes Search API result.

/// One result: a song, a movie, a podcast…, decoded from an iTunes Search API result.
///
/// Every field but `id` is optional, because iTunes omits what does not apply; unknown fields
/// are ignored. `id` is the first present of `trackId`, `collectionId` and `artistId`.
/// Decoding is lenient (SearchItem+Decoding.swift): a field of the wrong type reads as nil.
/// Encoding writes our own shape (with `id` and `artworkUrl`), which decodes back to the same item.
///
/// An item is a value: copies never share a change. A copy costs one reference, however many
/// fields the item has, and an item of the built-in catalog holds no fields at all until one is
/// changed: each is read from the catalog when asked for (SearchItem+Storage.swift).
public struct SearchItem: Sendable {
  /// The fields, shared by copies until one of them changes a field; nil for an item of the
  /// built-in catalog that was never changed, whose fields are its record's.
  var storage: SearchItemStorage?
  /// The item's position in the built-in catalog when `storage` is nil.
  let builtInPosition: Int
  /// How the item matched the query of the answer it is part of, when its source says (the
  /// catalog does); nil otherwise. Not one of the item's fields: two items with the same fields
  /// are equal however each matched.
  public var match: SearchMatch?

  /// Creates an item; every field but `id` may be left out. `releaseDate` is kept in its one form
  /// (see ``releaseDate``).
  public init(
    id: Int, wrapperType: String? = nil, kind: String? = nil, trackId: Int? = nil,
    collectionId: Int? = nil, artistId: Int? = nil, trackName: String? = nil,
    collectionName: String? = nil, artistName: String? = nil, trackViewUrl: String? = nil,
    collectionViewUrl: String? = nil, previewUrl: String? = nil, artworkUrl100: String? = nil,
    artworkUrl: String? = nil, releaseDate: String? = nil, primaryGenreName: String? = nil,
    trackTimeMillis: Int? = nil, price: Double? = nil, currency: String? = nil,
    country: String? = nil, feedUrl: String? = nil, popularity: Int? = nil
  ) {
    self.init(
      fields: SearchItemFields(
        id: id, wrapperType: wrapperType, kind: kind, trackId: trackId, collectionId: collectionId,
        artistId: artistId, trackName: trackName, collectionName: collectionName, artistName: artistName,
        trackViewUrl: trackViewUrl, collectionViewUrl: collectionViewUrl, previewUrl: previewUrl,
        artworkUrl100: artworkUrl100, artworkUrl: artworkUrl, releaseDate: ReleaseDate.normalized(releaseDate),
        primaryGenreName: primaryGenreName, trackTimeMillis: trackTimeMillis, price: price, currency: currency,
        country: country, feedUrl: feedUrl, popularity: popularity))
  }

  /// The identifier: `trackId`, else `collectionId`, else `artistId`.
  public var id: Int {
    get { storage?.fields.id ?? builtIn.id }
    set { change { $0.id = newValue } }
  }
  /// iTunes' `wrapperType`: "track", "collection", "artist", "audiobook", "software"…
  public var wrapperType: String? {
    get { if let storage { storage.fields.wrapperType } else { builtIn.wrapperType } }
    set { change { $0.wrapperType = newValue } }
  }
  /// iTunes' `kind`: "song", "feature-movie", "podcast", "podcast-episode"…
  public var kind: String? {
    get { if let storage { storage.fields.kind } else { builtIn.kind } }
    set { change { $0.kind = newValue } }
  }
  /// The track's identifier, when the item is a track.
  public var trackId: Int? {
    get { if let storage { storage.fields.trackId } else { builtIn.trackId } }
    set { change { $0.trackId = newValue } }
  }
  /// The identifier of the collection (album, show, podcast) the item is or belongs to.
  public var collectionId: Int? {
    get { if let storage { storage.fields.collectionId } else { builtIn.collectionId } }
    set { change { $0.collectionId = newValue } }
  }
  /// The artist's identifier.
  public var artistId: Int? {
    get { storage?.fields.artistId }
    set { change { $0.artistId = newValue } }
  }
  /// The track's name.
  public var trackName: String? {
    get { if let storage { storage.fields.trackName } else { builtIn.trackName } }
    set { change { $0.trackName = newValue } }
  }
  /// The collection's name.
  public var collectionName: String? {
    get { if let storage { storage.fields.collectionName } else { builtIn.collectionName } }
    set { change { $0.collectionName = newValue } }
  }
  /// The artist's name.
  public var artistName: String? {
    get { if let storage { storage.fields.artistName } else { builtIn.artistName } }
    set { change { $0.artistName = newValue } }
  }
  /// The track's page in the store.
  public var trackViewUrl: String? {
    get { if let storage { storage.fields.trackViewUrl } else { builtIn.trackViewUrl } }
    set { change { $0.trackViewUrl = newValue } }
  }
  /// The collection's page in the store.
  public var collectionViewUrl: String? {
    get { storage?.fields.collectionViewUrl }
    set { change { $0.collectionViewUrl = newValue } }
  }
  /// A short preview of the media.
  public var previewUrl: String? {
    get { storage?.fields.previewUrl }
    set { change { $0.previewUrl = newValue } }
  }
  /// The 100×100 artwork, as iTunes sends it.
  public var artworkUrl100: String? {
    get { storage?.fields.artworkUrl100 }
    set { change { $0.artworkUrl100 = newValue } }
  }
  /// The largest artwork URL present (artworkUrl600, 512, 100, 60, 30, in that order).
  public var artworkUrl: String? {
    get { storage?.fields.artworkUrl }
    set { change { $0.artworkUrl = newValue } }
  }
  /// The release date as an ISO 8601 calendar date at the precision known: `2014-08-18`, `2014-08`
  /// or `2014`.
  ///
  /// Set in any of those forms, or as a date and time (iTunes' `2014-08-18T07:00:00Z`), it keeps
  /// the date alone, as written; text that is not such a date is dropped (the field reads nil).
  /// ``releaseYear`` gives the year as a number.
  public var releaseDate: String? {
    get { if let storage { storage.fields.releaseDate } else { builtIn.releaseDate } }
    set { change { $0.releaseDate = ReleaseDate.normalized(newValue) } }
  }
  /// The main genre, e.g. "Rock".
  public var primaryGenreName: String? {
    get { if let storage { storage.fields.primaryGenreName } else { builtIn.primaryGenreName } }
    set { change { $0.primaryGenreName = newValue } }
  }
  /// The duration in milliseconds.
  public var trackTimeMillis: Int? {
    get { if let storage { storage.fields.trackTimeMillis } else { builtIn.trackTimeMillis } }
    set { change { $0.trackTimeMillis = newValue } }
  }
  /// `trackPrice`, else `collectionPrice`, else `price`.
  public var price: Double? {
    get { if let storage { storage.fields.price } else { builtIn.price } }
    set { change { $0.price = newValue } }
  }
  /// The currency of `price`, e.g. "USD".
  public var currency: String? {
    get { if let storage { storage.fields.currency } else { builtIn.currency } }
    set { change { $0.currency = newValue } }
  }
  /// The store's country as iTunes writes it, e.g. "USA".
  public var country: String? {
    get { storage?.fields.country }
    set { change { $0.country = newValue } }
  }
  /// A podcast's RSS feed.
  public var feedUrl: String? {
    get { storage?.fields.feedUrl }
    set { change { $0.feedUrl = newValue } }
  }
  /// How popular the item is in an offline catalog (higher first); nil from iTunes.
  public var popularity: Int? {
    get { if let storage { storage.fields.popularity } else { builtIn.popularity } }
    set { change { $0.popularity = newValue } }
  }

  /// The name to show: the track's, else the collection's, else the artist's.
  public var title: String? { trackName ?? collectionName ?? artistName }

  /// The item as people tell it from others of the same name, `Shake It Off — Taylor Swift · 2014`:
  /// the title (`#id` without one), the artist unless it is the title, the year when known. The
  /// text is the fields' own: escape its control characters before showing it on a terminal.
  public var displayText: String {
    let title = title
    var text = title ?? "#\(id)"
    if let artist = artistName, artist != title { text += " — " + artist }
    if let year = releaseYear { text += " · " + String(year) }
    return text
  }
}
