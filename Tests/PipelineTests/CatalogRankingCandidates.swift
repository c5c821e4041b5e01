// Items as the ranking rule's definition sees them (`CatalogRanking.Candidate`), for the tests
// that check the index against it.
@testable import Catalog
@testable import Pipeline

extension CatalogRanking.Candidate {
  /// The item at `position` of `store`, with the forms its folded names carry (for the built-in
  /// catalog, the curated aliases too).
  init(store: any CatalogItemStore, position: Int, names: FoldedNames, category: Category) {
    let item = store.names(at: position)
    let artistIsPrimary = CatalogRanking.artistIsPrimary(in: category)
    var forms: [(words: [FoldedWord], isPrimary: Bool)] = []
    for (name, isPrimary) in [(item.track, true), (item.collection, true), (item.artist, artistIsPrimary)]
    where name != CatalogItemNames.none {
      for form in names.forms(ofName: name) {
        forms.append((names.words(ofForm: form).map { names.words[Int($0)] }, isPrimary))
      }
    }
    let key = store.rankKey(at: position)
    self.init(forms: forms, popularity: key.popularity, id: key.id)
  }

  /// A rendered item, its names folded by `TextFolding.forms`.
  init(item: SearchItem, category: Category) {
    let artistIsPrimary = CatalogRanking.artistIsPrimary(in: category)
    var forms: [(words: [FoldedWord], isPrimary: Bool)] = []
    for (name, isPrimary) in [(item.trackName, true), (item.collectionName, true), (item.artistName, artistIsPrimary)] {
      guard let name else { continue }
      forms += TextFolding.forms(name).map { ($0, isPrimary) }
    }
    self.init(forms: forms, popularity: item.popularity ?? 0, id: item.id)
  }
}
