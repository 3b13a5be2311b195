// The generated catalogue of the search benchmarks: titles and Zipf-distributed tags drawn from
// one seeded generator, so two runs (and two servers tagged by bench/compare-library.ts) get the
// same library.

export const NAMESPACES = [
  'artist',
  'parody',
  'group',
  'character',
  'language',
  'female',
  'male',
  'series',
]

const SYLLABLES = (
  'ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ' +
  'ma mi mu me mo ya yu yo ra ri ru re ro wa n'
).split(' ')

/** One generated archive: what the repos or `PUT /api/archives/{id}/metadata` are given. */
export type GeneratedArchive = {
  title: string
  /** Namespaced tags, then one `date_added:` tag. */
  tags: string[]
  pagecount: number
  isnew: boolean
  progress: number
  lastreadtime: number
}

export type CatalogueOptions = {
  /** Distinct tags drawn from (default 50,000). */
  vocabulary?: number
  /** Tags per archive besides `date_added` (default 14). */
  tagsPerArchive?: number
  /** Distinct title words (default 8,000). */
  titleWords?: number
}

/**
 * A seeded generator. The order of its random draws is part of the contract: bench/search.ts's
 * recorded figures were measured on exactly this sequence (vocabulary, title words, then per
 * archive tags, date, title, page count, new flag, progress, last read time).
 */
export function createCatalogue(options: CatalogueOptions = {}) {
  const vocabularySize = options.vocabulary ?? 50_000
  const tagsPerArchive = options.tagsPerArchive ?? 14
  let seed = 42
  // xorshift32: deterministic and cheap.
  const random = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!
  const word = () => {
    const length = 2 + Math.floor(random() * 3)
    return Array.from({ length }, () => pick(SYLLABLES)).join('')
  }

  const vocabulary: string[] = []
  const seenTags = new Set<string>()
  while (vocabulary.length < vocabularySize) {
    const ns = vocabulary.length < 40 ? 'language' : pick(NAMESPACES)
    const tag = `${ns}:${word()}${random() < 0.4 ? ' ' + word() : ''}`
    if (seenTags.has(tag)) continue
    seenTags.add(tag)
    vocabulary.push(tag)
  }
  const titleWords = Array.from({ length: options.titleWords ?? 8000 }, word)
  const nextTag = zipf(vocabulary.length, random)
  const nextWord = zipf(titleWords.length, random)

  /** The next archive of the sequence; `i` only sets its last read time. */
  const archive = (i: number): GeneratedArchive => {
    const drawn = new Set<string>()
    while (drawn.size < tagsPerArchive) drawn.add(vocabulary[nextTag()]!)
    const tags = [...drawn, `date_added:${1_600_000_000 + Math.floor(random() * 100_000_000)}`]
    const title = Array.from({ length: 6 }, () => titleWords[nextWord()]!).join(' ')
    const pagecount = 10 + Math.floor(random() * 290)
    const isnew = random() < 0.2
    const progress = random() < 0.3 ? Math.floor(random() * pagecount) : 0
    const lastreadtime = random() < 0.3 ? 1_700_000_000 + i : 0
    return { title, tags, pagecount, isnew, progress, lastreadtime }
  }

  return { random, pick, vocabulary, titleWords, nextTag, nextWord, archive }
}

/** Index sampler for 1/rank weights over `n` items: rank 0 is the most frequent. */
function zipf(n: number, random: () => number): () => number {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1)
  return () => {
    const x = random() * sum
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cdf[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
