// The generated offline catalog: big enough, the same on every run, unique ids, every default
// category well represented, and the well-known names people type.
import Catalog
import CatalogFiller
import Pipeline
import TestSupport
import Testing

@Suite struct CatalogGeneratorTests {
  @Test func defaultCatalogHasAtLeastTenThousandItems() async {
    await OwnThread.running {
      #expect(CatalogSource.generatedItems().count >= 10_000)
      #expect(CatalogSource.generatedItems(count: 500).count == 500)
      #expect(CatalogSource.generatedItems(count: 0).isEmpty)
    }
  }

  @Test func twoGenerationsAreIdentical() async {
    await OwnThread.running {
      let first = CatalogSource.generatedItems()
      let second = CatalogSource.generatedItems()
      #expect(first == second)
      #expect(fingerprint(first) == fingerprint(second))
    }
  }

  @Test func idsAreUnique() async {
    await OwnThread.running {
      let items = CatalogSource.generatedItems()
      #expect(Set(items.map(\.id)).count == items.count)
      #expect(items.allSatisfy { $0.trackId == $0.id })
    }
  }

  @Test func everyDefaultCategoryIsWellRepresented() async {
    let (total, counts) = await OwnThread.running { () -> (Int, [Category: Int]) in
      let items = CatalogSource.generatedItems()
      var counts: [Category: Int] = [:]
      for item in items {
        if let category = Category(kind: item.kind, wrapperType: item.wrapperType) {
          counts[category, default: 0] += 1
        }
      }
      return (items.count, counts)
    }
    #expect(counts.values.reduce(0, +) == total)
    for category in Category.defaults {
      #expect(counts[category, default: 0] >= total / 10, "\(category): \(counts[category, default: 0])")
    }
  }

  @Test func itemsCarryTheFieldsOfTheirKind() async {
    // Checked where they are computed, and only the answers expected here: an `#expect` of an
    // `allSatisfy` inside the body once failed although no item broke the rule.
    let (songs, movies, podcasts, all) = await OwnThread.running { () -> (Bool, Bool, Bool, Bool) in
      let items = CatalogSource.generatedItems()
      let songs = items.filter { $0.kind == "song" }.allSatisfy {
        $0.wrapperType == "track" && $0.trackName != nil && $0.artistName != nil && $0.collectionName != nil
      }
      let movies = items.filter { $0.kind == "feature-movie" }.allSatisfy {
        $0.trackName != nil && $0.trackTimeMillis != nil
      }
      let podcasts = items.filter { $0.kind == "podcast" }.allSatisfy {
        $0.feedUrl?.hasPrefix("https://catalog.invalid/") == true
      }
      let all = items.allSatisfy {
        $0.trackViewUrl?.hasPrefix("https://catalog.invalid/") == true && $0.popularity != nil
          && $0.releaseDate?.count == 10 && $0.releaseYear != nil && $0.primaryGenreName != nil && $0.price != nil
      }
      return (songs, movies, podcasts, all)
    }
    #expect(songs, "every song is a track with a title, an artist and an album")
    #expect(movies, "every film has a title and a running time")
    #expect(podcasts, "every podcast has a feed")
    #expect(all, "every item has a page, a popularity, a release date, a genre and a price")
  }

  @Test func containsTheWellKnownNamesPeopleType() async {
    await OwnThread.running {
      let items = CatalogSource.generatedItems()
      let artists = Set(items.compactMap(\.artistName))
      for artist in [
        "Taylor Swift", "Radiohead", "Hans Zimmer", "Drake", "Beyoncé", "Sigur Rós", "宇多田ヒカル",
        "AC/DC", "Simon & Garfunkel",
      ] {
        #expect(artists.contains(artist), "\(artist)")
      }
      let titles = Set(items.compactMap(\.trackName))
      for title in ["Stranger Things", "Serial", "Inception"] {
        #expect(titles.contains(title), "\(title)")
      }
      #expect(titles.contains { $0.hasPrefix("Ceramic") })
    }
  }

  /// FNV-1a over ids and names, so two runs can be compared by one number too.
  private func fingerprint(_ items: [SearchItem]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for item in items {
      let text = "\(item.id)|\(item.trackName ?? "")|\(item.artistName ?? "")|\(item.collectionName ?? "")\n"
      for byte in text.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
      }
    }
    return hash
  }
}
