// The folded form of every letter in the accented Latin and Greek blocks, written out: the
// canonical decomposition without its combining marks, lowercased ("É" → "e", "ῷ" → "ω").
// Written out because asking Foundation for decompositions at start-up loads its Unicode data,
// about a megabyte of resident memory; a test checks this table against Foundation.
import Pipeline

extension TextFolding {
  /// Per block, its first scalar and, for each scalar from there on, what it folds to: one
  /// scalar per entry, "_" for a scalar that is no letter, digit or mark (a separator).
  static let accentedBlockFolds: [(first: UInt32, folds: [String])] = [
    (
      0xC0,
      [
        "aaaaaaæceeeeiiiiðnooooo_øuuuuyþßaaaaaaæceeeeiiii",
        "ðnooooo_øuuuuyþyaaaaaaccccccccddđđeeeeeeeeeegggg",
        "gggghhħħiiiiiiiiiıĳĳjjkkĸllllllŀŀłłnnnnnnŉŋŋoooo",
        "ooœœrrrrrrssssssssttttŧŧuuuuuuuuuuuuwwyyyzzzzzzſ",
        "ƀɓƃƃƅƅɔƈƈɖɗƌƌƍǝəɛƒƒɠɣƕɩɨƙƙƚƛɯɲƞɵooƣƣƥƥʀƨƨʃƪƫƭƭʈu",
        "uʊʋƴƴƶƶʒƹƹƺƻƽƽƾƿǀǁǂǃǆǆǆǉǉǉǌǌǌaaiioouuuuuuuuuuǝaa",
        "aaææǥǥggkkooooʒʒjǳǳǳggƕƿnnaaææøøaaaaeeeeiiiioooo",
        "rrrruuuussttȝȝhhƞȡȣȣȥȥaaeeooooooooyyȴȵȶȷȸȹⱥȼȼƚⱦȿ",
        "ɀɂɂƀʉʌɇɇɉɉɋɋɍɍɏɏ",
      ]
    ),
    (
      0x370,
      [
        "ͱͱͳͳʹ_ͷͷ__ͺͻͼͽ_ϳ______α_εηι_ο_υωιαβγδεζηθικλμνξο",
        "πρ_στυφχψωιυαεηιυαβγδεζηθικλμνξοπρςστυφχψωιυουωϗ",
        "ϐϑϒϒϒϕϖϗϙϙϛϛϝϝϟϟϡϡϣϣϥϥϧϧϩϩϫϫϭϭϯϯϰϱϲϳθϵ_ϸϸϲϻϻϼͻͼͽ",
      ]
    ),
    (
      0x1E00,
      [
        "aabbbbbbccddddddddddeeeeeeeeeeffgghhhhhhhhhhiiii",
        "kkkkkkllllllllmmmmmmnnnnnnnnoooooooopppprrrrrrrr",
        "ssssssssssttttttttuuuuuuuuuuvvvvwwwwwwwwwwxxxxyy",
        "zzzzzzhtwyẚſẜẝßẟaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeee",
        "eeeeeeeeiiiioooooooooooooooooooooooouuuuuuuuuuuu",
        "uuyyyyyyyyỻỻỽỽỿỿααααααααααααααααεεεεεε__εεεεεε__",
        "ηηηηηηηηηηηηηηηηιιιιιιιιιιιιιιιιοοοοοο__οοοοοο__",
        "υυυυυυυυ_υ_υ_υ_υωωωωωωωωωωωωωωωωααεεηηιιοουυωω__",
        "ααααααααααααααααηηηηηηηηηηηηηηηηωωωωωωωωωωωωωωωω",
        "ααααα_ααααααα_ι___ηηη_ηηεεηηη___ιιιι__ιιιιιι____",
        "υυυυρρυυυυυυρ_____ωωω_ωωοοωωω___",
      ]
    ),
  ]
}
