// Builds the generated filler catalog (for tests and the benchmark): the famous anchors first,
// then songs, movies and podcasts named from word lists by a seeded generator, so every run on
// every machine sees the same items.
import Catalog
import Pipeline
import StreamsTesting

/// Generates the catalog's items as compact records (see `GeneratedRecord`). Every generated item
/// draws from its own generator seeded by its position, so an item does not depend on how its
/// neighbours were generated.
enum CatalogGenerator {
  private static let itemStream: UInt64 = 0x5EED_CA7A_106E_0001
  private static let artistStream: UInt64 = 0x5EED_CA7A_106E_0002
  private static let albumStream: UInt64 = 0x5EED_CA7A_106E_0003
  private static let albumsPerArtist = 3
  private static let firstArtistId = 800_000_000
  private static let firstCollectionId = 900_000_000
  private static let firstAnchorArtistId = 700_000_000

  /// Appends `count` records (none when `count` ≤ 0) to `catalog`: the anchors, then generated items.
  static func generate(count: Int, into catalog: inout GeneratedCatalog.Builder) {
    guard count > 0 else { return }
    appendAnchors(to: &catalog, limit: count)
    // About twelve songs per generated artist, as in real catalogs where a few names recur.
    let artists = Artists(count: max(40, count / 12), names: &catalog)
    while catalog.count < count {
      let index = catalog.count
      var random = SplitMix64(stream: itemStream, index: index)
      let roll = random.below(100)
      if roll < 60 {
        catalog.append(song(artists: artists, random: &random, names: &catalog))
      } else if roll < 82 {
        catalog.append(movie(random: &random, names: &catalog))
      } else {
        catalog.append(podcast(random: &random, names: &catalog))
      }
    }
  }

  // MARK: Anchors

  private static func appendAnchors(to catalog: inout GeneratedCatalog.Builder, limit: Int) {
    var artistIds: [String: Int] = [:]
    for (albumIndex, album) in CatalogAnchors.albums.enumerated() {
      let artistId = artistIds[album.artist] ?? firstAnchorArtistId + artistIds.count
      artistIds[album.artist] = artistId
      for (songIndex, title) in album.songs.enumerated() where catalog.count < limit {
        var random = SplitMix64(stream: itemStream, index: catalog.count)
        var record = song(
          title: catalog.id(of: title), artist: catalog.id(of: album.artist), artistId: artistId,
          album: catalog.id(of: album.album), collectionId: firstCollectionId - 1 - albumIndex,
          genre: catalog.id(of: album.genre), random: &random)
        setReleaseDate(of: &record, year: album.year, random: &random)
        record.popularity = Int32(album.popularity - songIndex * 7)
        catalog.append(record)
      }
    }
    for movie in CatalogAnchors.movies where catalog.count < limit {
      var random = SplitMix64(stream: itemStream, index: catalog.count)
      var record = self.movie(
        title: catalog.id(of: movie.title), director: catalog.id(of: movie.director),
        genre: catalog.id(of: movie.genre), random: &random)
      setReleaseDate(of: &record, year: movie.year, random: &random)
      record.popularity = Int32(movie.popularity)
      catalog.append(record)
    }
    for podcast in CatalogAnchors.podcasts where catalog.count < limit {
      var random = SplitMix64(stream: itemStream, index: catalog.count)
      var record = self.podcast(
        title: catalog.id(of: podcast.title), host: catalog.id(of: podcast.host),
        genre: catalog.id(of: podcast.genre), random: &random)
      setReleaseDate(of: &record, year: podcast.year, random: &random)
      record.popularity = Int32(podcast.popularity)
      catalog.append(record)
    }
  }

  /// Draws a month and a day in `year` (in that order, after everything else of the item).
  private static func setReleaseDate(of record: inout GeneratedRecord, year: Int, random: inout SplitMix64) {
    let date = CatalogFormat.releaseDay(&random)
    record.year = UInt16(clamping: year)
    record.month = UInt8(date.month)
    record.day = UInt8(date.day)
  }

  // MARK: Songs

  private static func song(
    artists: Artists, random: inout SplitMix64, names: inout GeneratedCatalog.Builder
  ) -> GeneratedRecord {
    let artistIndex = random.below(artists.names.count)
    let albumIndex = artistIndex * albumsPerArtist + random.below(albumsPerArtist)
    var record = song(
      title: names.id(of: CatalogNames.songTitle(&random)), artist: artists.names[artistIndex],
      artistId: firstArtistId + artistIndex, album: artists.albums[albumIndex],
      collectionId: firstCollectionId + albumIndex, genre: artists.genres[artistIndex], random: &random)
    setReleaseDate(of: &record, year: random.within(1965...2025), random: &random)
    record.popularity = Int32(CatalogFormat.popularity(&random))
    return record
  }

  private static func song(
    title: UInt32, artist: UInt32, artistId: Int, album: UInt32, collectionId: Int, genre: UInt32,
    random: inout SplitMix64
  ) -> GeneratedRecord {
    var record = GeneratedRecord(
      kind: .song, trackName: title, collectionName: album, artistName: artist, genre: genre)
    record.collectionId = Int32(collectionId)
    record.artistId = Int32(artistId)
    record.trackTimeMillis = Int32(random.within(95_000...420_000))
    record.price = random.chance(70) ? 1.29 : 0.99
    return record
  }

  /// The generated artists' names, genres and album titles (as name ids), each drawn from its
  /// own generator seeded by the artist's (or album's) number, and made once rather than per song.
  private struct Artists {
    let names: [UInt32]
    let genres: [UInt32]
    /// Album `albumsPerArtist × artist + k` is the artist's k-th album.
    let albums: [UInt32]

    init(count: Int, names table: inout GeneratedCatalog.Builder) {
      names = (0..<count).map { artist in
        var random = SplitMix64(stream: artistStream, index: artist)
        return table.id(of: CatalogNames.artistName(&random))
      }
      genres = (0..<count).map { artist in
        var random = SplitMix64(stream: artistStream ^ 0xFF, index: artist)
        return table.id(of: random.pick(CatalogWords.musicGenres))
      }
      albums = (0..<(count * albumsPerArtist)).map { album in
        var random = SplitMix64(stream: albumStream, index: album)
        return table.id(of: CatalogNames.albumTitle(&random))
      }
    }
  }

  // MARK: Movies

  private static func movie(random: inout SplitMix64, names: inout GeneratedCatalog.Builder) -> GeneratedRecord {
    var record = movie(
      title: names.id(of: CatalogNames.movieTitle(&random)), director: names.id(of: CatalogNames.personName(&random)),
      genre: names.id(of: random.pick(CatalogWords.movieGenres)), random: &random)
    setReleaseDate(of: &record, year: random.within(1950...2025), random: &random)
    record.popularity = Int32(CatalogFormat.popularity(&random))
    return record
  }

  private static func movie(
    title: UInt32, director: UInt32, genre: UInt32, random: inout SplitMix64
  ) -> GeneratedRecord {
    var record = GeneratedRecord(kind: .movie, trackName: title, artistName: director, genre: genre)
    record.trackTimeMillis = Int32(random.within(80...190) * 60_000)
    record.price = random.pick([9.99, 12.99, 14.99, 19.99])
    return record
  }

  // MARK: Podcasts

  private static func podcast(random: inout SplitMix64, names: inout GeneratedCatalog.Builder) -> GeneratedRecord {
    var record = podcast(
      title: names.id(of: CatalogNames.podcastTitle(&random)), host: names.id(of: CatalogNames.podcastHost(&random)),
      genre: names.id(of: random.pick(CatalogWords.podcastGenres)), random: &random)
    setReleaseDate(of: &record, year: random.within(2005...2025), random: &random)
    record.popularity = Int32(CatalogFormat.popularity(&random))
    return record
  }

  private static func podcast(
    title: UInt32, host: UInt32, genre: UInt32, random: inout SplitMix64
  ) -> GeneratedRecord {
    var record = GeneratedRecord(
      kind: .podcast, trackName: title, collectionName: title, artistName: host, genre: genre)
    record.price = random.chance(95) ? 0 : 2.99
    return record
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
    GeneratedCatalog(count: count).items
  }
}
