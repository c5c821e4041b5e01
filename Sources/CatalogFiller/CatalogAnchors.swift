// Well-known artists, songs, films and podcasts that people type into a search field, placed at
// the head of the generated catalog so the offline source answers familiar queries. Names and
// release years are facts; nothing else about the works is reproduced.

/// The famous entries of the generated catalog.
enum CatalogAnchors {
  /// One album of a well-known artist with a few of its songs.
  struct Album {
    let artist: String
    let album: String
    let songs: [String]
    let genre: String
    let year: Int
    /// How popular the album's songs are; the first song gets this, later ones a little less.
    let popularity: Int
  }

  /// A well-known film and its director.
  struct Movie {
    let title: String
    let director: String
    let genre: String
    let year: Int
    let popularity: Int
  }

  /// A well-known podcast and who makes it.
  struct Podcast {
    let title: String
    let host: String
    let genre: String
    let year: Int
    let popularity: Int
  }

  static let albums: [Album] = [
    Album(
      artist: "Taylor Swift", album: "1989", songs: ["Shake It Off", "Blank Space", "Style"],
      genre: "Pop", year: 2014, popularity: 990),
    Album(
      artist: "Taylor Swift", album: "Midnights", songs: ["Anti-Hero", "Lavender Haze"],
      genre: "Pop", year: 2022, popularity: 985),
    Album(
      artist: "Radiohead", album: "OK Computer", songs: ["Karma Police", "No Surprises", "Paranoid Android"],
      genre: "Alternative", year: 1997, popularity: 940),
    Album(
      artist: "Radiohead", album: "Pablo Honey", songs: ["Creep"], genre: "Alternative", year: 1993,
      popularity: 950),
    Album(
      artist: "Hans Zimmer", album: "Interstellar (Original Motion Picture Soundtrack)",
      songs: ["Cornfield Chase", "No Time for Caution", "Day One"], genre: "Soundtrack", year: 2014,
      popularity: 900),
    Album(
      artist: "Hans Zimmer", album: "Inception (Music from the Motion Picture)",
      songs: ["Time", "Dream Is Collapsing"], genre: "Soundtrack", year: 2010, popularity: 910),
    Album(
      artist: "Drake", album: "Views", songs: ["One Dance", "Hotline Bling"], genre: "Hip-Hop/Rap",
      year: 2016, popularity: 960),
    Album(
      artist: "Drake", album: "Scorpion", songs: ["God's Plan", "In My Feelings"], genre: "Hip-Hop/Rap",
      year: 2018, popularity: 955),
    Album(
      artist: "Beyoncé", album: "Dangerously in Love", songs: ["Crazy in Love"], genre: "R&B/Soul",
      year: 2003, popularity: 965),
    Album(
      artist: "Beyoncé", album: "Renaissance", songs: ["Break My Soul", "Cuff It"], genre: "Dance",
      year: 2022, popularity: 945),
    Album(
      artist: "Sigur Rós", album: "Takk...", songs: ["Hoppípolla", "Glósóli"], genre: "Alternative",
      year: 2005, popularity: 820),
    Album(
      artist: "宇多田ヒカル", album: "First Love", songs: ["First Love", "Automatic"], genre: "J-Pop",
      year: 1999, popularity: 870),
    Album(
      artist: "宇多田ヒカル", album: "Fantôme", songs: ["花束を君に", "道"], genre: "J-Pop",
      year: 2016, popularity: 840),
    Album(
      artist: "AC/DC", album: "Back in Black", songs: ["Back in Black", "You Shook Me All Night Long"],
      genre: "Rock", year: 1980, popularity: 930),
    Album(
      artist: "AC/DC", album: "Highway to Hell", songs: ["Highway to Hell"], genre: "Rock", year: 1979,
      popularity: 925),
    Album(
      artist: "Simon & Garfunkel", album: "Bridge over Troubled Water",
      songs: ["Bridge over Troubled Water", "The Boxer", "Cecilia"], genre: "Folk", year: 1970,
      popularity: 880),
    Album(
      artist: "Simon & Garfunkel", album: "Sounds of Silence", songs: ["The Sound of Silence"],
      genre: "Folk", year: 1966, popularity: 890),
    Album(
      artist: "Kyle Dixon & Michael Stein",
      album: "Stranger Things, Vol. 1 (A Netflix Original Series Soundtrack)",
      songs: ["Stranger Things", "Kids"], genre: "Soundtrack", year: 2016, popularity: 860),
    Album(
      artist: "The Beatles", album: "Abbey Road", songs: ["Come Together", "Here Comes the Sun"],
      genre: "Rock", year: 1969, popularity: 950),
    Album(
      artist: "Adele", album: "21", songs: ["Rolling in the Deep", "Someone Like You"], genre: "Pop",
      year: 2011, popularity: 940),
    Album(
      artist: "Daft Punk", album: "Random Access Memories", songs: ["Get Lucky", "Instant Crush"],
      genre: "Electronic", year: 2013, popularity: 900),
    Album(
      artist: "Björk", album: "Homogenic", songs: ["Jóga", "Bachelorette"], genre: "Alternative",
      year: 1997, popularity: 800),
    Album(
      artist: "Queen", album: "A Night at the Opera", songs: ["Bohemian Rhapsody"], genre: "Rock",
      year: 1975, popularity: 970),
    Album(
      artist: "Billie Eilish", album: "When We All Fall Asleep, Where Do We Go?", songs: ["bad guy"],
      genre: "Alternative", year: 2019, popularity: 950),
    Album(
      artist: "The Weeknd", album: "After Hours", songs: ["Blinding Lights"], genre: "R&B/Soul",
      year: 2020, popularity: 975),
    Album(
      artist: "Rosalía", album: "El Mal Querer", songs: ["Malamente"], genre: "Latin", year: 2018,
      popularity: 860),
    Album(
      artist: "Céline Dion", album: "Let's Talk About Love", songs: ["My Heart Will Go On"], genre: "Pop",
      year: 1997, popularity: 900),
    Album(
      artist: "Motörhead", album: "Ace of Spades", songs: ["Ace of Spades"], genre: "Metal", year: 1980,
      popularity: 830),
    Album(
      artist: "Ludovico Einaudi", album: "Una Mattina", songs: ["Nuvole Bianche"], genre: "Classical",
      year: 2004, popularity: 850),
    Album(
      artist: "Miles Davis", album: "Kind of Blue", songs: ["So What", "Blue in Green"], genre: "Jazz",
      year: 1959, popularity: 840),
    Album(
      artist: "Coldplay", album: "Parachutes", songs: ["Yellow"], genre: "Alternative", year: 2000,
      popularity: 930),
    Album(
      artist: "Lumen Harbor", album: "Kiln", songs: ["Ceramic Heart", "Ceramics"], genre: "Indie Pop",
      year: 2021, popularity: 610),
  ]

  static let movies: [Movie] = [
    Movie(
      title: "Inception", director: "Christopher Nolan", genre: "Sci-Fi & Fantasy", year: 2010,
      popularity: 980),
    Movie(
      title: "Interstellar", director: "Christopher Nolan", genre: "Sci-Fi & Fantasy", year: 2014,
      popularity: 975),
    Movie(
      title: "The Dark Knight", director: "Christopher Nolan", genre: "Action & Adventure", year: 2008,
      popularity: 970),
    Movie(title: "Oppenheimer", director: "Christopher Nolan", genre: "Drama", year: 2023, popularity: 965),
    Movie(title: "Spirited Away", director: "Hayao Miyazaki", genre: "Animation", year: 2001, popularity: 940),
    Movie(title: "Amélie", director: "Jean-Pierre Jeunet", genre: "Comedy", year: 2001, popularity: 880),
    Movie(title: "Parasite", director: "Bong Joon-ho", genre: "Thriller", year: 2019, popularity: 930),
    Movie(
      title: "The Godfather", director: "Francis Ford Coppola", genre: "Drama", year: 1972,
      popularity: 960),
    Movie(title: "Pulp Fiction", director: "Quentin Tarantino", genre: "Thriller", year: 1994, popularity: 950),
    Movie(title: "Dune", director: "Denis Villeneuve", genre: "Sci-Fi & Fantasy", year: 2021, popularity: 945),
    Movie(
      title: "Everything Everywhere All at Once", director: "Daniel Kwan & Daniel Scheinert",
      genre: "Sci-Fi & Fantasy", year: 2022, popularity: 920),
    Movie(
      title: "The Matrix", director: "Lana Wachowski & Lilly Wachowski", genre: "Sci-Fi & Fantasy",
      year: 1999, popularity: 955),
    Movie(title: "Titanic", director: "James Cameron", genre: "Romance", year: 1997, popularity: 940),
    Movie(title: "La La Land", director: "Damien Chazelle", genre: "Musicals", year: 2016, popularity: 910),
    Movie(
      title: "Léon: The Professional", director: "Luc Besson", genre: "Thriller", year: 1994,
      popularity: 870),
    Movie(title: "Barbie", director: "Greta Gerwig", genre: "Comedy", year: 2023, popularity: 935),
    Movie(
      title: "Stranger Than Fiction", director: "Marc Forster", genre: "Comedy", year: 2006,
      popularity: 700),
    Movie(title: "千と千尋の神隠し", director: "宮崎駿", genre: "Animation", year: 2001, popularity: 820),
  ]

  static let podcasts: [Podcast] = [
    Podcast(
      title: "Serial", host: "Serial Productions & The New York Times", genre: "True Crime", year: 2014,
      popularity: 970),
    Podcast(
      title: "This American Life", host: "This American Life", genre: "Society & Culture", year: 2006,
      popularity: 960),
    Podcast(title: "The Daily", host: "The New York Times", genre: "News", year: 2017, popularity: 980),
    Podcast(title: "Radiolab", host: "WNYC Studios", genre: "Science", year: 2007, popularity: 930),
    Podcast(title: "Hardcore History", host: "Dan Carlin", genre: "History", year: 2006, popularity: 920),
    Podcast(title: "99% Invisible", host: "Roman Mars", genre: "Arts", year: 2010, popularity: 910),
    Podcast(title: "Planet Money", host: "NPR", genre: "Business", year: 2008, popularity: 915),
    Podcast(
      title: "Stuff You Should Know", host: "iHeartPodcasts", genre: "Education", year: 2008,
      popularity: 925),
    Podcast(title: "Crime Junkie", host: "audiochuck", genre: "True Crime", year: 2017, popularity: 940),
    Podcast(
      title: "Freakonomics Radio", host: "Freakonomics Radio + Stitcher", genre: "Society & Culture",
      year: 2010, popularity: 900),
    Podcast(title: "TED Talks Daily", host: "TED", genre: "Education", year: 2018, popularity: 890),
    Podcast(
      title: "Conan O'Brien Needs A Friend", host: "Team Coco & Earwolf", genre: "Comedy", year: 2018,
      popularity: 905),
    Podcast(
      title: "My Favorite Murder", host: "Exactly Right", genre: "True Crime", year: 2016,
      popularity: 915),
  ]
}
