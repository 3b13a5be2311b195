// `.lrrignore` files: archives of the content folder the catalogue leaves out, with LANraragi's
// rules (its Utils/Ignore.pm), so a library moved over from LANraragi skips the same files.
// A file in any folder holds one glob per line, matched case-insensitively against paths relative
// to that folder: `*` is any run within one path segment, a trailing `/` names a folder (what is
// under it), a leading `/` (or `./`) anchors at the file's folder, otherwise the glob may start at
// any depth; `!` re-includes, `#` starts a comment, `\` makes the next character literal (`\*`,
// `\!`, `\#`). The nearest folder whose rules match a file decides, its last matching rule winning.

import { folderOf } from './files.ts'

/** The file name LANraragi reads its ignore rules from. */
export const IGNORE_FILE_NAME = '.lrrignore'

export type IgnoreRule = { regex: RegExp; negation: boolean }

/** Rules by the content-relative folder of their file ('' for the content folder itself). */
export type IgnoreRules = ReadonlyMap<string, readonly IgnoreRule[]>

// Only the characters that are syntax in a `u`-flag pattern are escaped (it refuses other escapes).
const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')

function globToRegex(glob: string): RegExp | null {
  let pattern = glob
  const folder = pattern.endsWith('/')
  if (folder) pattern = pattern.slice(0, -1)
  const anchored = /^\.?\//.test(pattern)
  if (anchored) pattern = pattern.replace(/^\.?\//, '')
  if (pattern === '') return null
  const body = pattern
    .split(/(?<!\\)\*/)
    .map((piece) => escapeRegex(piece.replace(/\\(.)/gsu, '$1')))
    .join('[^/]*')
  return new RegExp(`^${anchored ? '' : '(?:.+/)?'}${body}${folder ? '/.*' : ''}$`, 'isu')
}

/** The rules of one `.lrrignore` file, in order; blank lines and comments are skipped. */
export function parseIgnoreFile(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = []
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const negation = line.startsWith('!')
    if (negation) line = line.slice(1)
    const regex = globToRegex(line)
    if (regex) rules.push({ regex, negation })
  }
  return rules
}

/** Whether a file (content-relative, '/'-separated) is left out of the catalogue. */
export function isIgnored(rules: IgnoreRules, path: string): boolean {
  if (rules.size === 0) return false
  for (let folder = folderOf(path); ; folder = folderOf(folder)) {
    const own = rules.get(folder)
    if (own) {
      const relative = folder === '' ? path : path.slice(folder.length + 1)
      let ignored: boolean | undefined
      for (const rule of own) if (rule.regex.test(relative)) ignored = !rule.negation
      if (ignored !== undefined) return ignored
    }
    if (folder === '') return false
  }
}
