// ComicInfo's LanguageISO code as the tag value libraries use: the English name. A copy of the
// table in plugins/metadata/comicinfo.ts (plugins run in the sandbox and import nothing), so the
// tags read at catalogue time are the ones the plugin proposes (test/http/comicinfo-at-catalogue
// checks both ways).

/**
 * ISO 639-1 codes, and the 639-2 (bibliographic and terminology) and 639-3 codes of the same
 * languages, to the lower-case English names LANraragi's plugins and most libraries tag
 * (`language:english`, not `language:en`). The languages comics are published or translated in.
 */
const LANGUAGES: [name: string, codes: string][] = [
  ['arabic', 'ar ara arb'],
  ['bengali', 'bn ben'],
  ['bulgarian', 'bg bul'],
  ['catalan', 'ca cat'],
  ['chinese', 'zh chi zho cmn yue'],
  ['croatian', 'hr hrv'],
  ['czech', 'cs cze ces'],
  ['danish', 'da dan'],
  ['dutch', 'nl dut nld'],
  ['english', 'en eng'],
  ['esperanto', 'eo epo'],
  ['estonian', 'et est'],
  ['filipino', 'fil tl tgl'],
  ['finnish', 'fi fin'],
  ['french', 'fr fre fra'],
  ['german', 'de ger deu'],
  ['greek', 'el gre ell'],
  ['hebrew', 'he heb iw'],
  ['hindi', 'hi hin'],
  ['hungarian', 'hu hun'],
  ['indonesian', 'id ind in'],
  ['irish', 'ga gle'],
  ['italian', 'it ita'],
  ['japanese', 'ja jpn'],
  ['korean', 'ko kor'],
  ['latin', 'la lat'],
  ['latvian', 'lv lav'],
  ['lithuanian', 'lt lit'],
  ['malay', 'ms may msa zsm'],
  ['mongolian', 'mn mon'],
  ['norwegian', 'no nor nb nob nn nno'],
  ['persian', 'fa per fas'],
  ['polish', 'pl pol'],
  ['portuguese', 'pt por'],
  ['romanian', 'ro rum ron'],
  ['russian', 'ru rus'],
  ['serbian', 'sr srp'],
  ['slovak', 'sk slo slk'],
  ['slovenian', 'sl slv'],
  ['spanish', 'es spa'],
  ['swedish', 'sv swe'],
  ['tamil', 'ta tam'],
  ['thai', 'th tha'],
  ['turkish', 'tr tur'],
  ['ukrainian', 'uk ukr'],
  ['urdu', 'ur urd'],
  ['vietnamese', 'vi vie'],
]
const LANGUAGE_BY_CODE = new Map(
  LANGUAGES.flatMap(([name, codes]) => codes.split(' ').map((code) => [code, name] as const)),
)

/**
 * The tag value for a LanguageISO field: the English name of a known code, with any region or
 * script dropped (`en-US`, `pt_BR`, `zh-Hant`); anything else as written, lower-cased (a name
 * such as `English` already, or a code this table lacks).
 */
export function languageName(raw: string): string {
  const value = raw.trim().toLowerCase()
  const base = value.split(/[-_]/)[0] ?? ''
  return LANGUAGE_BY_CODE.get(value) ?? LANGUAGE_BY_CODE.get(base) ?? value
}
