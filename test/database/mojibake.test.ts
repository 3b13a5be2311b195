// Mojibake repair: only a clean round trip (characters -> Windows-1252 bytes -> valid UTF-8) counts.
import { describe, expect, it } from 'bun:test'
import { repairMojibake } from '../../src/domain/database/mojibake.ts'

/** What a CP1252 reader makes of UTF-8 text (the damage the repair undoes). */
function damage(text: string): string {
  const cp1252 = new TextDecoder('windows-1252')
  return cp1252.decode(new TextEncoder().encode(text))
}

describe('repairMojibake', () => {
  it('repairs UTF-8 text read as Windows-1252', () => {
    expect(repairMojibake('CafÃ©')).toBe('Café')
    expect(damage('日本語')).not.toBe('日本語')
    expect(repairMojibake(damage('日本語のタイトル'))).toBe('日本語のタイトル')
    expect(repairMojibake(damage('artist:Łukasz, “quoted” — €5'))).toBe(
      'artist:Łukasz, “quoted” — €5',
    )
  })

  it('repairs text damaged twice', () => {
    expect(repairMojibake(damage(damage('ñandú')))).toBe('ñandú')
  })

  it('leaves clean text alone: ASCII, real Latin-1, CJK, emoji', () => {
    for (const text of ['plain ascii', 'café', 'naïve résumé', '日本語', 'ok 👍', 'Ã alone', ''])
      expect(repairMojibake(text)).toBe(text)
  })
})
