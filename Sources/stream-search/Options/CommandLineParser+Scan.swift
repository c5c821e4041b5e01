// How the words of a command line become an `OptionDraft`: each option applied in order as it is
// read, `--opt value` and `--opt=value` alike, terms kept when the command takes them, and the first
// unknown option or bad value reported with what was meant.

extension CommandLineParser {
  /// Applies each option in `words` to a draft, in order, so the last of a repeated option wins.
  /// With `acceptsTerms`, a word that is no option (and every word after `--`) is a term.
  static func scan(_ words: [String], options specs: [OptionSpec], notUTF8: Set<Int>, acceptsTerms: Bool)
    throws(CommandLineError) -> OptionDraft
  {
    let specsByName = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var draft = OptionDraft()
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      let wordIsUTF8 = !notUTF8.contains(index)
      index += 1
      if word == "--" {
        // Terms after the terminator may look like options; for other commands, anything there
        // is unexpected.
        if index < words.endIndex, !acceptsTerms { throw .unexpectedArgument(words[index]) }
        draft.terms += words[index...]
        break
      }
      guard word.hasPrefix("-"), word != "-" else {
        guard acceptsTerms else { throw .unexpectedArgument(word) }
        draft.terms.append(word)
        continue
      }
      let (name, inlineValue) = splitInlineValue(word)
      if let inlineValue, name == "--help" || name == "--version" {
        // Plain `--help` and `--version` never get here: `parse` answers them before scanning.
        throw .unexpectedValue(inlineValue, option: name)
      }
      guard let spec = specsByName[name] else {
        let known = specs.map(\.name) + ["--version", "--help"]
        throw .unknownOption(name, suggestion: Suggestion.closest(to: name, among: known))
      }
      switch spec.action {
      case .flag(let set):
        if let inlineValue { throw .unexpectedValue(inlineValue, option: name) }
        set(&draft)
      case .value(_, let apply):
        let value: String
        let valueIsUTF8: Bool
        if let inlineValue {
          (value, valueIsUTF8) = (inlineValue, wordIsUTF8)
        } else if index < words.endIndex, !looksLikeOption(words[index]) {
          (value, valueIsUTF8) = (words[index], !notUTF8.contains(index))
          index += 1
        } else {
          throw .missingValue(option: name)
        }
        guard valueIsUTF8 else {
          throw .invalidValue(
            value, option: name,
            reason: "it is not valid UTF-8, and every argument is read as UTF-8 (rename the file, or name it "
              + "through a link whose name is)")
        }
        do {
          try apply(&draft, value)
        } catch {
          throw .invalidValue(value, option: name, reason: error.reason)
        }
      }
    }
    return draft
  }

  /// `--name=value` → (`--name`, `value`); anything else → (word, nil). Only long options take
  /// `=`, so `-h=x` is an unknown option rather than `-h` with a value.
  static func splitInlineValue(_ word: String) -> (name: String, value: String?) {
    guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }

  /// True for words read as options rather than values: `--anything` and `-` then a letter.
  /// `-` alone and `-5` stay values, so they reach the value's own check.
  static func looksLikeOption(_ word: String) -> Bool {
    if word.hasPrefix("--") { return true }
    return word.hasPrefix("-") && word.dropFirst().first?.isLetter == true
  }
}
