import TestSupport
import Testing

// What people type first, against the built-in catalog: 281 queries (films, artists, songs,
// podcasts, prefixes, typos of every kind, other spellings, numbers, stylised names, ranking),
// each with the item that must come first in its category.
@testable import Pipeline

@Suite struct CatalogQuerySetTests {
  /// What a query is a test of; the hit rate is reported per kind.
  enum Kind: String, CaseIterable {
    case film, artist, song, podcast, prefix, typo
    /// One typo in a word of four to seven letters, the first letter included.
    case shortTypo
    /// Two typos in a word of eight letters or more.
    case twoTypos
    /// "&", "+", "and", "n'", "o'" for one another.
    case spelling
    /// Numbers in digits, Roman numerals and words.
    case numeral
    /// Names spelt with symbols, digits or joined words, and without their article.
    case stylised
    /// What comes first: a composer's own works, one item per work, titles before directors.
    case ranking
  }

  /// A query and what must come first: an item titled `title`, or any item by `artist`.
  struct Query {
    let kind: Kind
    let term: String
    let category: Category
    let title: String?
    let artist: String?

    init(_ kind: Kind, _ term: String, _ category: Category, title: String? = nil, artist: String? = nil) {
      self.kind = kind
      self.term = term
      self.category = category
      self.title = title
      self.artist = artist
    }

    func isAnsweredFirst(by item: SearchItem?) -> Bool {
      guard let item else { return false }
      if let title { return item.title == title }
      return item.artistName == artist
    }
  }

  /// The queries that miss today, each for a reason of the ranking rule or the typo rule
  /// (docs/catalog.md, "Query set"). A query that starts to hit fails the test too, so the
  /// rates in the docs stay true.
  static let knownMisses: Set<String> = [
    "the lord of the rings",  // the exact-name tier puts Bakshi's 1978 film of that name first.
    // Every word of "So Dark the Night" is in the query; "Knight" only within a typo, and typos
    // are answered only when nothing matches without one.
    "the dark night",
  ]

  static let queries: [Query] = [
    Query(.film, "star wars", .movies, title: "Star Wars"),
    Query(.film, "frozen", .movies, title: "Frozen"),
    Query(.film, "toy story", .movies, title: "Toy Story"),
    Query(.film, "harry potter", .movies, title: "Harry Potter and the Sorcerer's Stone"),
    Query(.film, "shrek", .movies, title: "Shrek"),
    Query(.film, "inception", .movies, title: "Inception"),
    Query(.film, "the dark knight", .movies, title: "The Dark Knight"),
    Query(.film, "interstellar", .movies, title: "Interstellar"),
    Query(.film, "titanic", .movies, title: "Titanic"),
    Query(.film, "jurassic park", .movies, title: "Jurassic Park"),
    Query(.film, "the godfather", .movies, title: "The Godfather"),
    Query(.film, "pulp fiction", .movies, title: "Pulp Fiction"),
    Query(.film, "forrest gump", .movies, title: "Forrest Gump"),
    Query(.film, "the matrix", .movies, title: "The Matrix"),
    Query(.film, "oppenheimer", .movies, title: "Oppenheimer"),
    Query(.film, "barbie", .movies, title: "Barbie"),
    Query(.film, "parasite", .movies, title: "Parasite"),
    Query(.film, "joker", .movies, title: "Joker"),
    Query(.film, "black panther", .movies, title: "Black Panther"),
    Query(.film, "coco", .movies, title: "Coco"),
    Query(.film, "finding nemo", .movies, title: "Finding Nemo"),
    Query(.film, "spirited away", .movies, title: "Spirited Away"),
    Query(.film, "get out", .movies, title: "Get Out"),
    Query(.film, "the shawshank redemption", .movies, title: "The Shawshank Redemption"),
    Query(.film, "casablanca", .movies, title: "Casablanca"),
    Query(.film, "psycho", .movies, title: "Psycho"),
    Query(.film, "jaws", .movies, title: "Jaws"),
    Query(.film, "back to the future", .movies, title: "Back to the Future"),
    Query(.film, "gladiator", .movies, title: "Gladiator"),
    Query(.film, "the avengers", .movies, title: "The Avengers"),
    Query(.film, "iron man", .movies, title: "Iron Man"),
    Query(.film, "wicked", .movies, title: "Wicked"),
    Query(.film, "everything everywhere", .movies, title: "Everything Everywhere All at Once"),
    Query(.film, "la la land", .movies, title: "La La Land"),
    Query(.film, "whiplash", .movies, title: "Whiplash"),
    Query(.film, "the social network", .movies, title: "The Social Network"),
    Query(.film, "goodfellas", .movies, title: "Goodfellas"),
    Query(.film, "schindler's list", .movies, title: "Schindler's List"),
    Query(.film, "the silence of the lambs", .movies, title: "The Silence of the Lambs"),
    Query(.film, "the lord of the rings", .movies, title: "The Lord of the Rings: The Fellowship of the Ring"),
    Query(.film, "home alone", .movies, title: "Home Alone"),
    Query(.film, "the incredibles", .movies, title: "The Incredibles"),
    Query(.film, "ratatouille", .movies, title: "Ratatouille"),
    Query(.film, "knives out", .movies, title: "Knives Out"),
    Query(.film, "mad max fury road", .movies, title: "Mad Max: Fury Road"),
    Query(.film, "deadpool", .movies, title: "Deadpool"),
    Query(.film, "the lion king", .movies, title: "The Lion King"),
    Query(.film, "christopher nolan", .movies, title: "Oppenheimer"),
    Query(.artist, "taylor swift", .music, artist: "Taylor Swift"),
    Query(.artist, "jack johnson", .music, artist: "Jack Johnson"),
    Query(.artist, "ed sheeran", .music, artist: "Ed Sheeran"),
    Query(.artist, "eminem", .music, artist: "Eminem"),
    Query(.artist, "nirvana", .music, artist: "Nirvana"),
    Query(.artist, "beyonce", .music, artist: "Beyoncé"),
    Query(.artist, "drake", .music, artist: "Drake"),
    Query(.artist, "the beatles", .music, artist: "The Beatles"),
    Query(.artist, "adele", .music, artist: "Adele"),
    Query(.artist, "metallica", .music, artist: "Metallica"),
    Query(.artist, "radiohead", .music, artist: "Radiohead"),
    Query(.artist, "coldplay", .music, artist: "Coldplay"),
    Query(.artist, "queen", .music, artist: "Queen"),
    Query(.artist, "billie eilish", .music, artist: "Billie Eilish"),
    Query(.artist, "bad bunny", .music, artist: "Bad Bunny"),
    Query(.artist, "the weeknd", .music, artist: "The Weeknd"),
    Query(.artist, "kendrick lamar", .music, artist: "Kendrick Lamar"),
    Query(.artist, "rihanna", .music, artist: "Rihanna"),
    Query(.artist, "michael jackson", .music, artist: "Michael Jackson"),
    Query(.artist, "led zeppelin", .music, artist: "Led Zeppelin"),
    Query(.artist, "pink floyd", .music, artist: "Pink Floyd"),
    Query(.artist, "ac/dc", .music, artist: "AC/DC"),
    Query(.artist, "bts", .music, artist: "BTS"),
    Query(.artist, "dua lipa", .music, artist: "Dua Lipa"),
    Query(.artist, "bob marley", .music, artist: "Bob Marley & The Wailers"),
    Query(.artist, "johnny cash", .music, artist: "Johnny Cash"),
    Query(.artist, "hans zimmer", .music, artist: "Hans Zimmer"),
    Query(.artist, "motorhead", .music, artist: "Motörhead"),
    Query(.artist, "iron maiden", .music, artist: "Iron Maiden"),
    Query(.artist, "u2", .music, artist: "U2"),
    Query(.artist, "miles davis", .music, artist: "Miles Davis"),
    Query(.artist, "johann sebastian bach", .music, artist: "Johann Sebastian Bach"),
    Query(.song, "shake it off", .music, title: "Shake It Off"),
    Query(.song, "bohemian rhapsody", .music, title: "Bohemian Rhapsody"),
    Query(.song, "smells like teen spirit", .music, title: "Smells Like Teen Spirit"),
    Query(.song, "blinding lights", .music, title: "Blinding Lights"),
    Query(.song, "hotel california", .music, title: "Hotel California"),
    Query(.song, "billie jean", .music, title: "Billie Jean"),
    Query(.song, "hey jude", .music, title: "Hey Jude"),
    Query(.song, "stairway to heaven", .music, title: "Stairway to Heaven"),
    Query(.song, "lose yourself", .music, title: "Lose Yourself"),
    Query(.song, "rolling in the deep", .music, title: "Rolling in the Deep"),
    Query(.song, "shape of you", .music, title: "Shape of You"),
    Query(.song, "creep", .music, title: "Creep"),
    Query(.song, "wonderwall", .music, title: "Wonderwall"),
    Query(.song, "enter sandman", .music, title: "Enter Sandman"),
    Query(.song, "hallelujah", .music, title: "Hallelujah"),
    Query(.song, "imagine", .music, title: "Imagine"),
    Query(.song, "respect", .music, title: "Respect"),
    Query(.song, "dancing queen", .music, title: "Dancing Queen"),
    Query(.song, "sweet child o mine", .music, title: "Sweet Child o' Mine"),
    Query(.song, "mr brightside", .music, title: "Mr. Brightside"),
    Query(.song, "uptown funk", .music, title: "Uptown Funk"),
    Query(.song, "despacito", .music, title: "Despacito"),
    Query(.song, "take on me", .music, title: "Take On Me"),
    Query(.song, "better together", .music, title: "Better Together"),
    Query(.song, "thriller", .music, title: "Thriller"),
    Query(.song, "purple rain", .music, title: "Purple Rain"),
    Query(.song, "espresso", .music, title: "Espresso"),
    Query(.song, "old town road", .music, title: "Old Town Road"),
    Query(.podcast, "joe rogan", .podcasts, title: "The Joe Rogan Experience"),
    Query(.podcast, "the daily", .podcasts, title: "The Daily"),
    Query(.podcast, "crime junkie", .podcasts, title: "Crime Junkie"),
    Query(.podcast, "call her daddy", .podcasts, title: "Call Her Daddy"),
    Query(.podcast, "this american life", .podcasts, title: "This American Life"),
    Query(.podcast, "smartless", .podcasts, title: "SmartLess"),
    Query(.podcast, "serial", .podcasts, title: "Serial"),
    Query(.podcast, "huberman", .podcasts, title: "Huberman Lab"),
    Query(.podcast, "my favorite murder", .podcasts, title: "My Favorite Murder"),
    Query(.podcast, "freakonomics", .podcasts, title: "Freakonomics Radio"),
    Query(.podcast, "radiolab", .podcasts, title: "Radiolab"),
    Query(.podcast, "planet money", .podcasts, title: "Planet Money"),
    Query(.podcast, "hardcore history", .podcasts, title: "Dan Carlin's Hardcore History"),
    Query(.podcast, "99% invisible", .podcasts, title: "99% Invisible"),
    Query(.podcast, "lex fridman", .podcasts, title: "Lex Fridman Podcast"),
    Query(.podcast, "stuff you should know", .podcasts, title: "Stuff You Should Know"),
    Query(.podcast, "fresh air", .podcasts, title: "Fresh Air"),
    Query(.podcast, "ted talks", .podcasts, title: "TED Talks Daily"),
    Query(.podcast, "new york times", .podcasts, title: "The Daily"),
    Query(.podcast, "hidden brain", .podcasts, title: "Hidden Brain"),
    Query(.podcast, "armchair expert", .podcasts, title: "Armchair Expert with Dax Shepard"),
    Query(.podcast, "darknet diaries", .podcasts, title: "Darknet Diaries"),
    Query(.prefix, "star wa", .movies, title: "Star Wars"),
    Query(.prefix, "harry pot", .movies, title: "Harry Potter and the Sorcerer's Stone"),
    Query(.prefix, "toy st", .movies, title: "Toy Story"),
    Query(.prefix, "incep", .movies, title: "Inception"),
    Query(.prefix, "the dark kn", .movies, title: "The Dark Knight"),
    Query(.prefix, "jurass", .movies, title: "Jurassic Park"),
    Query(.prefix, "interst", .movies, title: "Interstellar"),
    Query(.prefix, "oppen", .movies, title: "Oppenheimer"),
    Query(.prefix, "taylor sw", .music, artist: "Taylor Swift"),
    Query(.prefix, "tay", .music, artist: "Taylor Swift"),
    Query(.prefix, "ed sh", .music, artist: "Ed Sheeran"),
    Query(.prefix, "emin", .music, artist: "Eminem"),
    Query(.prefix, "bohemian rh", .music, title: "Bohemian Rhapsody"),
    Query(.prefix, "smells like", .music, title: "Smells Like Teen Spirit"),
    Query(.prefix, "radioh", .music, artist: "Radiohead"),
    Query(.prefix, "metall", .music, artist: "Metallica"),
    Query(.prefix, "billie e", .music, artist: "Billie Eilish"),
    Query(.prefix, "blinding", .music, title: "Blinding Lights"),
    Query(.prefix, "joe ro", .podcasts, title: "The Joe Rogan Experience"),
    Query(.prefix, "crime j", .podcasts, title: "Crime Junkie"),
    Query(.prefix, "this amer", .podcasts, title: "This American Life"),
    Query(.prefix, "stuff you", .podcasts, title: "Stuff You Should Know"),
    Query(.typo, "incepton", .movies, title: "Inception"),
    Query(.typo, "interstelar", .movies, title: "Interstellar"),
    Query(.typo, "jurasic park", .movies, title: "Jurassic Park"),
    Query(.typo, "gladiatr", .movies, title: "Gladiator"),
    Query(.typo, "harry poter", .movies, title: "Harry Potter and the Sorcerer's Stone"),
    Query(.typo, "shawshenk redemption", .movies, title: "The Shawshank Redemption"),
    Query(.typo, "oppenhiemer", .movies, title: "Oppenheimer"),
    Query(.typo, "godfahter", .movies, title: "The Godfather"),
    Query(.typo, "metalica", .music, artist: "Metallica"),
    Query(.typo, "bohemian rapsody", .music, title: "Bohemian Rhapsody"),
    Query(.typo, "eminen", .music, artist: "Eminem"),
    Query(.typo, "beyonse", .music, artist: "Beyoncé"),
    Query(.typo, "nirvanna", .music, artist: "Nirvana"),
    Query(.typo, "radiohed", .music, artist: "Radiohead"),
    Query(.typo, "coldpaly", .music, artist: "Coldplay"),
    Query(.typo, "rihana", .music, artist: "Rihanna"),
    Query(.typo, "beatels", .music, artist: "The Beatles"),
    Query(.typo, "led zepelin", .music, artist: "Led Zeppelin"),
    Query(.typo, "wonderwal", .music, title: "Wonderwall"),
    Query(.typo, "freakonomix", .podcasts, title: "Freakonomics Radio"),
    Query(.typo, "joe rogen", .podcasts, title: "The Joe Rogan Experience"),
    Query(.typo, "smartles", .podcasts, title: "SmartLess"),
    Query(.typo, "hubermann", .podcasts, title: "Huberman Lab"),
    Query(.typo, "radiolabb", .podcasts, title: "Radiolab"),
    // Written for the matching rules of docs/catalog.md: a typo in a word of four to seven
    // letters (the first letter too), two typos from eight, "&"/"and"/"n'"/"o'", numbers in
    // digits, Roman numerals and words, stylised names, and the order of what matches.
    Query(.shortTypo, "lizo", .music, artist: "Lizzo"),
    Query(.shortTypo, "kizzo", .music, artist: "Lizzo"),
    Query(.shortTypo, "draek", .music, artist: "Drake"),
    Query(.shortTypo, "bruno mras", .music, artist: "Bruno Mars"),
    Query(.shortTypo, "shakria", .music, artist: "Shakira"),
    Query(.shortTypo, "usehr", .music, artist: "Usher"),
    Query(.shortTypo, "oaiss", .music, artist: "Oasis"),
    Query(.shortTypo, "eminme", .music, artist: "Eminem"),
    Query(.shortTypo, "rihnna", .music, artist: "Rihanna"),
    Query(.shortTypo, "birvana", .music, artist: "Nirvana"),
    Query(.shortTypo, "adelle", .music, artist: "Adele"),
    Query(.shortTypo, "the beetles", .music, artist: "The Beatles"),
    Query(.shortTypo, "micheal jackson", .music, artist: "Michael Jackson"),
    Query(.shortTypo, "arianna grande", .music, artist: "Ariana Grande"),
    Query(.shortTypo, "billie elish", .music, artist: "Billie Eilish"),
    Query(.shortTypo, "kendrik lamar", .music, artist: "Kendrick Lamar"),
    Query(.shortTypo, "ed sheerin", .music, artist: "Ed Sheeran"),
    Query(.shortTypo, "jwas", .movies, title: "Jaws"),
    Query(.shortTypo, "shrke", .movies, title: "Shrek"),
    Query(.shortTypo, "tiatnic", .movies, title: "Titanic"),
    Query(.shortTypo, "jokr", .movies, title: "Joker"),
    Query(.shortTypo, "forest gump", .movies, title: "Forrest Gump"),
    Query(.shortTypo, "pulp fiktion", .movies, title: "Pulp Fiction"),
    Query(.shortTypo, "schindlers lsit", .movies, title: "Schindler's List"),
    Query(.shortTypo, "serail", .podcasts, title: "Serial"),
    Query(.shortTypo, "this american lief", .podcasts, title: "This American Life"),
    Query(.shortTypo, "the dark night", .movies, title: "The Dark Knight"),
    Query(.twoTypos, "metalicca", .music, artist: "Metallica"),
    Query(.twoTypos, "mettalica", .music, artist: "Metallica"),
    Query(.twoTypos, "halelujia", .music, title: "Hallelujah"),
    Query(.twoTypos, "bohemain rapsody", .music, title: "Bohemian Rhapsody"),
    Query(.twoTypos, "hotel califronia", .music, title: "Hotel California"),
    Query(.twoTypos, "inseptoin", .movies, title: "Inception"),
    Query(.twoTypos, "intersteler", .movies, title: "Interstellar"),
    Query(.twoTypos, "openheimmer", .movies, title: "Oppenheimer"),
    Query(.twoTypos, "ratatoulie", .movies, title: "Ratatouille"),
    Query(.twoTypos, "jurrasic parc", .movies, title: "Jurassic Park"),
    Query(.twoTypos, "shawshenk redemtion", .movies, title: "The Shawshank Redemption"),
    Query(.twoTypos, "freekonomix", .podcasts, title: "Freakonomics Radio"),
    Query(.twoTypos, "stuff you shuold know", .podcasts, title: "Stuff You Should Know"),
    Query(.spelling, "mumford and sons", .music, artist: "Mumford & Sons"),
    Query(.spelling, "guns and roses", .music, artist: "Guns N' Roses"),
    Query(.spelling, "guns n roses", .music, artist: "Guns N' Roses"),
    Query(.spelling, "simon and garfunkel", .music, artist: "Simon & Garfunkel"),
    Query(.spelling, "florence and the machine", .music, artist: "Florence + the Machine"),
    Query(.spelling, "hall and oates", .music, artist: "Daryl Hall & John Oates"),
    Query(.spelling, "earth wind and fire", .music, artist: "Earth, Wind & Fire"),
    Query(.spelling, "kool and the gang", .music, artist: "Kool & the Gang"),
    Query(.spelling, "hootie and the blowfish", .music, artist: "Hootie & the Blowfish"),
    Query(.spelling, "sweet child of mine", .music, title: "Sweet Child o' Mine"),
    Query(.spelling, "salt n pepa", .music, artist: "Salt-N-Pepa"),
    Query(.spelling, "fast and furious", .movies, title: "Fast & Furious"),
    Query(.spelling, "beauty & the beast", .movies, title: "Beauty and the Beast"),
    Query(.spelling, "love and basketball", .movies, title: "Love & Basketball"),
    Query(.spelling, "new york times", .podcasts, title: "The Daily"),
    Query(.numeral, "frozen 2", .movies, title: "Frozen II"),
    Query(.numeral, "frozen two", .movies, title: "Frozen II"),
    Query(.numeral, "toy story four", .movies, title: "Toy Story 4"),
    Query(.numeral, "rocky 4", .movies, title: "Rocky IV"),
    Query(.numeral, "shrek two", .movies, title: "Shrek 2"),
    Query(.numeral, "oceans 11", .movies, title: "Ocean's Eleven"),
    Query(.numeral, "apollo thirteen", .movies, title: "Apollo 13"),
    Query(.numeral, "inside out two", .movies, title: "Inside Out 2"),
    Query(.numeral, "john wick 4", .movies, title: "John Wick: Chapter 4"),
    Query(.numeral, "saw 10", .movies, title: "Saw X"),
    Query(.numeral, "godfather part 2", .movies, title: "The Godfather Part II"),
    Query(.numeral, "back to the future 2", .movies, title: "Back to the Future Part II"),
    Query(.numeral, "terminator two", .movies, title: "Terminator 2: Judgment Day"),
    Query(.numeral, "kill bill vol 2", .movies, title: "Kill Bill: Volume 2"),
    Query(.numeral, "star trek 2", .movies, title: "Star Trek II: The Wrath of Khan"),
    Query(.numeral, "star wars episode 4", .movies, title: "Star Wars"),
    Query(.numeral, "star wars episode 5", .movies, title: "The Empire Strikes Back"),
    Query(.numeral, "seven rings", .music, title: "7 Rings"),
    Query(.numeral, "three doors down", .music, artist: "3 Doors Down"),
    Query(.numeral, "maroon five", .music, artist: "Maroon 5"),
    Query(.numeral, "ninety nine problems", .music, title: "99 Problems"),
    Query(.numeral, "twenty one pilots", .music, artist: "Twenty One Pilots"),
    Query(.stylised, "pink", .music, artist: "P!nk"),
    Query(.stylised, "acdc", .music, artist: "AC/DC"),
    Query(.stylised, "jayz", .music, artist: "Jay-Z"),
    Query(.stylised, "neyo", .music, artist: "Ne-Yo"),
    Query(.stylised, "blink182", .music, artist: "blink-182"),
    Query(.stylised, "asap rocky", .music, artist: "A$AP Rocky"),
    Query(.stylised, "skater boy", .music, title: "Sk8er Boi"),
    Query(.stylised, "thank you next", .music, title: "Thank U, Next"),
    Query(.stylised, "nothing compares to you", .music, title: "Nothing Compares 2 U"),
    Query(.stylised, "nwa", .music, artist: "N.W.A"),
    Query(.stylised, "rem", .music, artist: "R.E.M."),
    Query(.stylised, "weeknd", .music, artist: "The Weeknd"),
    Query(.stylised, "killers", .music, artist: "The Killers"),
    Query(.stylised, "spiderman", .movies, title: "Spider-Man"),
    Query(.stylised, "walle", .movies, title: "WALL-E"),
    Query(.stylised, "xmen", .movies, title: "X-Men"),
    Query(.stylised, "se7en", .movies, title: "Seven"),
    Query(.ranking, "bach", .music, artist: "Johann Sebastian Bach"),
    Query(.ranking, "mozart", .music, artist: "Wolfgang Amadeus Mozart"),
    Query(.ranking, "beethoven", .music, artist: "Ludwig van Beethoven"),
    Query(.ranking, "chopin", .music, artist: "Frédéric Chopin"),
    Query(.ranking, "vivaldi", .music, artist: "Antonio Vivaldi"),
    Query(.ranking, "tchaikovsky", .music, artist: "Pyotr Ilyich Tchaikovsky"),
    Query(.ranking, "handel", .music, artist: "George Frideric Handel"),
    Query(.ranking, "under pressure", .music, artist: "Queen & David Bowie"),
    Query(.ranking, "despacito", .music, artist: "Luis Fonsi & Daddy Yankee"),
    Query(.ranking, "christopher", .movies, title: "Christopher Robin"),
    Query(.ranking, "james", .movies, title: "James and the Giant Peach"),
  ]

  @Test func theQuerySetFindsWhatPeopleTypeFirst() async throws {
    let (missed, hits) = try await OwnThread.running { () -> (Set<String>, [Kind: Int]) in
      let source = CatalogSource()
      var missed: Set<String> = []
      var hits: [Kind: Int] = [:]
      for query in Self.queries {
        let first = try await source.search(SearchRequest(term: query.term, category: query.category, limit: 25)).first
        if query.isAnsweredFirst(by: first) {
          hits[query.kind, default: 0] += 1
        } else {
          missed.insert(query.term)
        }
      }
      return (missed, hits)
    }
    #expect(Self.queries.count >= 236)
    let newMisses = missed.subtracting(Self.knownMisses).sorted()
    let nowFound = Self.knownMisses.subtracting(missed).sorted()
    #expect(missed == Self.knownMisses, "new misses: \(newMisses), now found: \(nowFound)")
    let rate = Double(Self.queries.count - missed.count) / Double(Self.queries.count)
    #expect(rate >= 0.97, "first right for \(Int(rate * 100)) %")
    let rates = Kind.allCases.map { kind in
      "\(kind.rawValue) \(hits[kind, default: 0])/\(Self.queries.filter { $0.kind == kind }.count)"
    }
    print("catalog query set:", rates.joined(separator: ", "))
  }

  @Test func noQueryAnswersEveryCategoryWithNothing() async throws {
    let source = CatalogSource()
    var empty: [String] = []
    for query in Self.queries {
      let answers = source.answerAtOnce(
        SearchRequest(term: query.term, category: .music, limit: 25), categories: Category.defaults)
      if answers.values.allSatisfy(\.isEmpty) { empty.append(query.term) }
    }
    #expect(empty.isEmpty, "answered with nothing at all: \(empty)")
  }

  @Test func theIndexAnswersTheQuerySetAsTheRankingRuleDefinesIt() async throws {
    try await OwnThread.running {
      let catalog = BuiltInCatalog.shared
      let source = CatalogSource()
      for category in [Category.music, .movies, .podcasts] {
        let candidates = (0..<catalog.count).filter { catalog.category(at: $0) == category }.map { position in
          CatalogRanking.Candidate(store: catalog, position: position, names: catalog.foldedNames(), category: category)
        }
        // Every fifth query: the definition visits every item, which is slow in a debug build.
        for (number, query) in Self.queries.enumerated() where query.category == category && number % 5 == 0 {
          let indexed = try await source.search(SearchRequest(term: query.term, category: category, limit: 10))
          let defined = CatalogRanking.answer(CatalogQuery(query.term), in: candidates, limit: 10)
          #expect(indexed.map(\.id) == defined, "\(query.term) [\(category)]")
        }
      }
    }
  }

  @Test func theEmbeddedCatalogReadsWhole() async {
    let (malformedLines, count, counts) = await OwnThread.running { () -> (Int, Int, [Category: Int]) in
      let catalog = BuiltInCatalog.shared
      var counts: [Category: Int] = [:]
      for position in 0..<catalog.count {
        if let category = catalog.category(at: position) { counts[category, default: 0] += 1 }
      }
      return (catalog.malformedLines, catalog.count, counts)
    }
    #expect(malformedLines == 0)
    #expect(count > 25_000)
    #expect(counts[.movies, default: 0] > 17_000)
    #expect(counts[.music, default: 0] > 8_000)
    #expect(counts[.podcasts, default: 0] >= 300)
    #expect(counts[.tvShow, default: 0] > 200)
  }
}
