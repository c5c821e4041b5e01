// Lenient decoding of iTunes Search API results (and of our own catalog shape) into `SearchItem`.
//
// iTunes omits what does not apply and, across years and media, has changed the type of a field
// now and then (a price as an integer, an id as a string). One odd field must not cost the whole
// answer, so each field is read on its own and a field of the wrong type becomes nil; only a
// result without any identifier fails, and `ITunesResponse` skips such results and counts them.

extension SearchItem: Decodable {
  /// Every key the decoder reads: iTunes' names, plus our own `id` and `artworkUrl`.
  private enum ITunesKeys: String, CodingKey {
    case id, wrapperType, kind, trackId, collectionId, artistId, trackName, collectionName, artistName
    case trackViewUrl, collectionViewUrl, previewUrl, releaseDate, primaryGenreName, trackTimeMillis
    case artworkUrl, artworkUrl600, artworkUrl512, artworkUrl100, artworkUrl60, artworkUrl30
    case trackPrice, collectionPrice, price, currency, country, feedUrl, popularity
  }

  /// Decodes an iTunes result or an item we encoded ourselves.
  ///
  /// `id` is our own `id` key, else `trackId`, else `collectionId`, else `artistId`; `artworkUrl`
  /// is our own `artworkUrl` key, else the largest artwork present; `price` is `trackPrice`, else
  /// `collectionPrice`, else `price`. Our own keys come first so that an item we encoded decodes
  /// to itself (iTunes never sends `id` or `artworkUrl`). Unknown keys are ignored and a value
  /// of the wrong type reads as absent.
  ///
  /// - Throws: `DecodingError.keyNotFound` when no identifier is present (or none is an integer);
  ///   `DecodingError.typeMismatch` when the value is not a JSON object.
  public init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: ITunesKeys.self)
    func read<T: Decodable>(_ key: ITunesKeys, as type: T.Type = T.self) -> T? {
      // `try?` on purpose: a wrong type is as good as absent, the rest of the result still counts.
      (try? values.decodeIfPresent(T.self, forKey: key)) ?? nil
    }
    let trackId: Int? = read(.trackId)
    let collectionId: Int? = read(.collectionId)
    let artistId: Int? = read(.artistId)
    guard let id = read(.id, as: Int.self) ?? trackId ?? collectionId ?? artistId else {
      throw DecodingError.keyNotFound(
        ITunesKeys.trackId,
        .init(codingPath: decoder.codingPath, debugDescription: "no id, trackId, collectionId or artistId")
      )
    }
    let artworkKeys: [ITunesKeys] = [.artworkUrl600, .artworkUrl512, .artworkUrl100, .artworkUrl60, .artworkUrl30]
    let largestArtwork = artworkKeys.lazy.compactMap { read($0, as: String.self) }.first
    self.init(
      id: id, wrapperType: read(.wrapperType), kind: read(.kind), trackId: trackId,
      collectionId: collectionId, artistId: artistId, trackName: read(.trackName),
      collectionName: read(.collectionName), artistName: read(.artistName),
      trackViewUrl: read(.trackViewUrl), collectionViewUrl: read(.collectionViewUrl),
      previewUrl: read(.previewUrl), artworkUrl100: read(.artworkUrl100),
      artworkUrl: read(.artworkUrl) ?? largestArtwork, releaseDate: read(.releaseDate),
      primaryGenreName: read(.primaryGenreName), trackTimeMillis: read(.trackTimeMillis),
      price: read(.trackPrice) ?? read(.collectionPrice) ?? read(.price), currency: read(.currency),
      country: read(.country), feedUrl: read(.feedUrl), popularity: read(.popularity)
    )
  }
}
