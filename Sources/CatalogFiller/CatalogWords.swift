// The word lists the generated catalog builds its names from: people's names, title words and
// genres. Written here, not loaded, so the catalog needs no resources and never changes.

/// Word lists for generated names. Sizes are picked so a 100,000-item catalog still has
/// realistic repetition (common words like "love" in thousands of titles) without many exact
/// duplicates.
enum CatalogWords {
  static let firstNames = [
    "Ada", "Alex", "Amara", "Andre", "Anna", "Ari", "Aurora", "Ben", "Bianca", "Caleb", "Camila",
    "Carmen", "Chloe", "Clara", "Dario", "David", "Dmitri", "Elena", "Eli", "Elif", "Emma",
    "Erik", "Esther", "Felix", "Freya", "Gabriel", "Grace", "Hana", "Hugo", "Ines", "Isaac",
    "Ivy", "Jack", "Jade", "James", "Jonas", "Julia", "Kai", "Kenji", "Lara", "Leo", "Lena",
    "Liam", "Lucia", "Luka", "Maya", "Marco", "Maria", "Mateo", "Mei", "Mila", "Nadia", "Naomi",
    "Nia", "Noah", "Nora", "Olivia", "Omar", "Oscar", "Pablo", "Priya", "Quinn", "Rafael",
    "Rosa", "Ruby", "Sam", "Sara", "Sofia", "Stella", "Theo", "Tomas", "Valentina", "Victor",
    "Yara", "Yusuf", "Zoe", "Zara", "Emil", "Agnes", "Henrik", "Selin", "Tariq", "Leila", "Iris",
    "Joaquín", "Zoë", "Søren", "Chloé", "Renée", "José", "Ana", "Björn", "Mónica", "Łukasz",
  ]

  static let lastNames = [
    "Adams", "Alvarez", "Andersen", "Baker", "Bennett", "Brooks", "Campbell", "Carter", "Castillo",
    "Chen", "Clarke", "Costa", "Cruz", "Dalton", "Diaz", "Duval", "Ellis", "Evans", "Fischer",
    "Fleming", "Foster", "Garcia", "Gray", "Green", "Hale", "Hansen", "Harper", "Hayes", "Hughes",
    "Ito", "Jensen", "Kaur", "Keller", "Kim", "Kowalski", "Larsen", "Lee", "Lindqvist", "Lopez",
    "Marsh", "Martin", "Mendes", "Miller", "Moreau", "Morgan", "Nakamura", "Nguyen", "Novak",
    "Okafor", "Olsen", "Park", "Patel", "Perez", "Quinn", "Reed", "Reyes", "Rossi", "Russo",
    "Sato", "Schmidt", "Silva", "Singh", "Stone", "Sullivan", "Tanaka", "Torres", "Vance",
    "Vargas", "Walsh", "Ward", "Weber", "West", "Wilde", "Wright", "Young", "Zimmer", "Moss",
    "Haddad", "Osei", "Petrov", "Berg", "Fontaine", "Navarro", "Brennan", "Holloway", "Mercer",
    "Núñez", "Dvořák", "Gómez", "Müller", "Sørensen", "Lefèvre", "Åberg", "Crnković",
  ]

  static let adjectives = [
    "Electric", "Golden", "Silver", "Quiet", "Wild", "Broken", "Hidden", "Burning", "Endless",
    "Fading", "Frozen", "Gentle", "Hollow", "Lonely", "Lost", "Midnight", "Neon", "Paper", "Pale",
    "Restless", "Secret", "Silent", "Sweet", "Velvet", "Wicked", "Young", "Crimson", "Distant",
    "Northern", "Southern", "Summer", "Winter", "Crystal", "Ceramic", "Cosmic", "Dusty", "Empty",
    "Falling", "Glass", "Heavy", "Honest", "Lucky", "Little", "Modern", "Naked", "Open", "Perfect",
    "Rainy", "Rolling", "Savage", "Shining", "Slow", "Strange", "Tender", "Violet", "Wandering",
    "Bitter", "Blue", "Black", "Bright", "Cold", "Dark", "Deep", "Easy", "Final", "First", "Free",
    "Green", "Holy", "Last", "Long", "Red", "Royal", "Scarlet", "Solar", "Stone", "White", "Wooden",
    "Iron", "Copper", "Analog", "Digital", "Sacred", "Feral", "Lunar", "Amber", "Ivory", "Jaded",
  ]

  static let nouns = [
    "Heart", "Fire", "River", "Moon", "Sky", "Night", "Dream", "Road", "City", "Ocean", "Rain",
    "Light", "Shadow", "Star", "Storm", "Summer", "Train", "Wave", "Wind", "Girl", "Boy", "Love",
    "Kingdom", "Garden", "Mirror", "Window", "Echo", "Ghost", "Highway", "Island", "Letter",
    "Machine", "Memory", "Mountain", "Morning", "Paradise", "Radio", "Rose", "Satellite", "Season",
    "Signal", "Smoke", "Song", "Stranger", "Sunrise", "Sunset", "Thunder", "Tide", "Valley",
    "Voice", "Weather", "Wolf", "World", "Youth", "Angel", "Avenue", "Bird", "Bridge", "Candle",
    "Circle", "Clock", "Crown", "Dance", "Desert", "Diamond", "Engine", "Feather", "Flower",
    "Forest", "Harbor", "Horizon", "Horse", "Hotel", "Lake", "Lantern", "Lighthouse", "Melody",
    "Orchard", "Planet", "Pulse", "Reverie", "Shore", "Silence", "Skin", "Snow", "Sparrow",
    "Stairway", "Telephone", "Tiger", "Tower", "Velocity", "Vision", "Wire", "Mountains",
    "Rivers", "Stars", "Lovers", "Strangers", "Ghosts", "Wolves", "Machines", "Dreamers", "Kids",
    "Sisters", "Brothers", "Saints", "Thieves", "Kings", "Queens", "Birds", "Tigers", "Echoes",
    "Pilots", "Sailors", "Giants", "Shadows", "Horses", "Roses", "Lions", "Ravens", "Heroes",
  ]

  /// Plural nouns for band names of the "The …" kind.
  static let pluralNouns = [
    "Mountains", "Rivers", "Stars", "Lovers", "Strangers", "Ghosts", "Wolves", "Machines",
    "Dreamers", "Kids", "Sisters", "Brothers", "Saints", "Thieves", "Kings", "Queens", "Birds",
    "Tigers", "Echoes", "Pilots", "Sailors", "Giants", "Shadows", "Horses", "Roses", "Lions",
    "Ravens", "Heroes", "Comets", "Wanderers", "Architects", "Drifters", "Foxes", "Orphans",
  ]

  static let verbs = [
    "Run", "Fall", "Dance", "Burn", "Hold", "Wait", "Drive", "Fly", "Breathe", "Shine", "Walk",
    "Call", "Stay", "Leave", "Remember", "Forget", "Chase", "Follow", "Find", "Lose", "Sing",
    "Dream", "Break", "Touch", "Carry", "Rise", "Fade", "Wake", "Dive", "Climb",
  ]

  static let prepositions = ["in", "on", "to", "from", "under", "over", "with", "without", "after", "before"]

  static let places = [
    "Berlin", "Tokyo", "Paris", "Lisbon", "Brooklyn", "California", "Memphis", "Oslo", "Havana",
    "Cairo", "Istanbul", "Nashville", "Detroit", "Seoul", "Reykjavík", "Montréal", "São Paulo",
    "Zürich", "Kraków", "Marseille", "Bogotá", "Kyoto", "Dublin", "Vienna", "Chicago", "Lagos",
  ]

  static let musicGenres = [
    "Pop", "Rock", "Alternative", "Hip-Hop/Rap", "R&B/Soul", "Electronic", "Dance", "Jazz",
    "Classical", "Country", "Folk", "Indie Pop", "Metal", "Reggae", "Latin", "Blues", "Soundtrack",
    "Singer/Songwriter", "J-Pop", "K-Pop", "Ambient",
  ]

  static let movieGenres = [
    "Drama", "Comedy", "Action & Adventure", "Thriller", "Horror", "Sci-Fi & Fantasy", "Romance",
    "Documentary", "Kids & Family", "Animation", "Independent", "Western", "Musicals",
  ]

  static let podcastGenres = [
    "Comedy", "True Crime", "News", "History", "Science", "Technology", "Business", "Education",
    "Society & Culture", "Sports", "Health & Fitness", "Arts", "Music", "Fiction", "Leisure",
  ]

  /// Topics for podcast names ("… Talk", "The … Hour").
  static let podcastTopics = [
    "Tech", "History", "Science", "Money", "Crime", "Design", "Comedy", "Football", "Startup",
    "Climate", "Food", "Film", "Book", "Music", "Politics", "Space", "Health", "Parenting",
    "Gaming", "Culture", "Language", "Philosophy", "Travel", "Coffee", "Garden", "Code",
  ]

  static let podcastForms = [
    "Podcast", "Show", "Hour", "Talk", "Radio", "Weekly", "Daily", "Club", "Files", "Sessions",
  ]

  static let romanNumerals = ["II", "III", "IV", "V"]
}
