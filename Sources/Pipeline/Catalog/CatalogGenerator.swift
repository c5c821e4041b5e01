// Builds the generated offline catalog: the famous anchors first, then songs, movies and podcasts
// named from word lists by a seeded generator, so every run on every machine sees the same items.

/// Generates the catalog's items. Every generated item draws from its own generator seeded by its
/// position, so an item does not depend on how its neighbours were generated.
enum CatalogGenerator {
  private static let itemStream: UInt64 = 0x5EED_CA7A_106E_0001
  private static let artistStream: UInt64 = 0x5EED_CA7A_106E_0002
  private static let albumStream: UInt64 = 0x5EED_CA7A_106E_0003
  private static let albumsPerArtist = 3
  private static let firstTrackId = 1_400_000_000
  private static let firstArtistId = 800_000_000
  private static let firstCollectionId = 900_000_000
  private static let firstAnchorArtistId = 700_000_000

  /// `count` items (none when `count` ≤ 0): the anchors, then generated items.
  static func items(count: Int) -> [SearchItem] {
    guard count > 0 else { return [] }
    var items: [SearchItem] = []
    // Capped: an absurd count should fail by running long, not by one huge allocation up front.
    items.reserveCapacity(min(count, 1 << 20))
    appendAnchors(to: &items, limit: count)
    // About twelve songs per generated artist, as in real catalogs where a few names recur.
    let artists = Artists(count: max(40, count / 12))
    while items.count < count {
      let index = items.count
      var random = SplitMix64(stream: itemStream, index: index)
      let roll = random.below(100)
      if roll < 60 {
        items.append(song(index: index, artists: artists, random: &random))
      } else if roll < 82 {
        items.append(movie(index: index, random: &random))
      } else {
        items.append(podcast(index: index, random: &random))
      }
    }
    return items
  }

  // MARK: Anchors

  private static func appendAnchors(to items: inout [SearchItem], limit: Int) {
    var artistIds: [String: Int] = [:]
    for (albumIndex, album) in CatalogAnchors.albums.enumerated() {
      let artistId = artistIds[album.artist] ?? firstAnchorArtistId + artistIds.count
      artistIds[album.artist] = artistId
      for (songIndex, title) in album.songs.enumerated() where items.count < limit {
        var random = SplitMix64(stream: itemStream, index: items.count)
        var item = song(
          index: items.count, title: title, artist: album.artist, artistId: artistId,
          album: album.album, collectionId: firstCollectionId - 1 - albumIndex, genre: album.genre,
          random: &random)
        item.releaseDate = CatalogFormat.releaseDate(year: album.year, random: &random)
        item.popularity = album.popularity - songIndex * 7
        items.append(item)
      }
    }
    for movie in CatalogAnchors.movies where items.count < limit {
      var random = SplitMix64(stream: itemStream, index: items.count)
      var item = self.movie(
        index: items.count, title: movie.title, director: movie.director, genre: movie.genre, random: &random)
      item.releaseDate = CatalogFormat.releaseDate(year: movie.year, random: &random)
      item.popularity = movie.popularity
      items.append(item)
    }
    for podcast in CatalogAnchors.podcasts where items.count < limit {
      var random = SplitMix64(stream: itemStream, index: items.count)
      var item = self.podcast(
        index: items.count, title: podcast.title, host: podcast.host, genre: podcast.genre, random: &random)
      item.releaseDate = CatalogFormat.releaseDate(year: podcast.year, random: &random)
      item.popularity = podcast.popularity
      items.append(item)
    }
  }

  // MARK: Songs

  private static func song(index: Int, artists: Artists, random: inout SplitMix64) -> SearchItem {
    let artistIndex = random.below(artists.names.count)
    let albumIndex = artistIndex * albumsPerArtist + random.below(albumsPerArtist)
    var item = song(
      index: index, title: CatalogNames.songTitle(&random), artist: artists.names[artistIndex],
      artistId: firstArtistId + artistIndex, album: artists.albums[albumIndex],
      collectionId: firstCollectionId + albumIndex, genre: artists.genres[artistIndex], random: &random)
    item.releaseDate = CatalogFormat.releaseDate(year: random.within(1965...2025), random: &random)
    item.popularity = CatalogFormat.popularity(&random)
    return item
  }

  private static func song(
    index: Int, title: String, artist: String, artistId: Int, album: String, collectionId: Int, genre: String,
    random: inout SplitMix64
  ) -> SearchItem {
    let id = firstTrackId + index
    return SearchItem(
      id: id, wrapperType: "track", kind: "song", trackId: id, collectionId: collectionId, artistId: artistId,
      trackName: title, collectionName: album, artistName: artist,
      trackViewUrl: "https://catalog.invalid/song/\(id)",
      collectionViewUrl: "https://catalog.invalid/album/\(collectionId)",
      previewUrl: "https://catalog.invalid/preview/\(id).m4a",
      artworkUrl100: CatalogFormat.artwork(collectionId, size: 100),
      artworkUrl: CatalogFormat.artwork(collectionId, size: 600),
      primaryGenreName: genre, trackTimeMillis: random.within(95_000...420_000),
      price: random.chance(70) ? 1.29 : 0.99, currency: "USD", country: "USA")
  }

  /// The generated artists' names, genres and album titles, each drawn from its own generator
  /// seeded by the artist's (or album's) number, and made once rather than per song.
  private struct Artists {
    let names: [String]
    let genres: [String]
    /// Album `albumsPerArtist × artist + k` is the artist's k-th album.
    let albums: [String]

    init(count: Int) {
      names = (0..<count).map { artist in
        var random = SplitMix64(stream: artistStream, index: artist)
        return CatalogNames.artistName(&random)
      }
      genres = (0..<count).map { artist in
        var random = SplitMix64(stream: artistStream ^ 0xFF, index: artist)
        return random.pick(CatalogWords.musicGenres)
      }
      albums = (0..<(count * albumsPerArtist)).map { album in
        var random = SplitMix64(stream: albumStream, index: album)
        return CatalogNames.albumTitle(&random)
      }
    }
  }

  // MARK: Movies

  private static func movie(index: Int, random: inout SplitMix64) -> SearchItem {
    var item = movie(
      index: index, title: CatalogNames.movieTitle(&random), director: CatalogNames.personName(&random),
      genre: random.pick(CatalogWords.movieGenres), random: &random)
    item.releaseDate = CatalogFormat.releaseDate(year: random.within(1950...2025), random: &random)
    item.popularity = CatalogFormat.popularity(&random)
    return item
  }

  private static func movie(
    index: Int, title: String, director: String, genre: String, random: inout SplitMix64
  ) -> SearchItem {
    let id = firstTrackId + index
    return SearchItem(
      id: id, wrapperType: "track", kind: "feature-movie", trackId: id, trackName: title, artistName: director,
      trackViewUrl: "https://catalog.invalid/movie/\(id)",
      previewUrl: "https://catalog.invalid/preview/\(id).m4v",
      artworkUrl100: CatalogFormat.artwork(id, size: 100), artworkUrl: CatalogFormat.artwork(id, size: 600),
      primaryGenreName: genre, trackTimeMillis: random.within(80...190) * 60_000,
      price: random.pick([9.99, 12.99, 14.99, 19.99]), currency: "USD", country: "USA")
  }

  // MARK: Podcasts

  private static func podcast(index: Int, random: inout SplitMix64) -> SearchItem {
    var item = podcast(
      index: index, title: CatalogNames.podcastTitle(&random), host: CatalogNames.podcastHost(&random),
      genre: random.pick(CatalogWords.podcastGenres), random: &random)
    item.releaseDate = CatalogFormat.releaseDate(year: random.within(2005...2025), random: &random)
    item.popularity = CatalogFormat.popularity(&random)
    return item
  }

  private static func podcast(
    index: Int, title: String, host: String, genre: String, random: inout SplitMix64
  ) -> SearchItem {
    let id = firstTrackId + index
    return SearchItem(
      id: id, wrapperType: "track", kind: "podcast", trackId: id, collectionId: id, trackName: title,
      collectionName: title, artistName: host, trackViewUrl: "https://catalog.invalid/podcast/\(id)",
      collectionViewUrl: "https://catalog.invalid/podcast/\(id)",
      artworkUrl100: CatalogFormat.artwork(id, size: 100), artworkUrl: CatalogFormat.artwork(id, size: 600),
      primaryGenreName: genre, price: random.chance(95) ? 0 : 2.99, currency: "USD", country: "USA",
      feedUrl: "https://catalog.invalid/feed/\(id).xml")
  }
}

extension CatalogSource {
  /// The generated offline catalog: `count` songs, movies and podcasts (about 60 %, 22 % and
  /// 18 %), the well-known ones first, with ids, names, genres, dates, prices and a popularity.
  ///
  /// The same `count` gives the same items on every run and machine: the names come from
  /// word lists in the code and a fixed-seed generator, never from the system's randomness.
  /// Ids are unique; URLs point at `https://catalog.invalid/`. Fewer than 1 item gives none.
  public static func generatedItems(count: Int = 12_000) -> [SearchItem] {
    CatalogGenerator.items(count: count)
  }
}
