// Archive and image fixtures generated at test time: small JPEGs, zips written byte by byte,
// tars (plain, gzip, bzip2, xz), 7z (via the 7za binary of the 7zip-bin npm package), hand-made
// RAR4, and hostile files (bombs, traversal, encrypted).
import { path7za } from '7zip-bin'
import { access, chmod, constants, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { crc32, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import sharp from 'sharp'

/** Bytes that own their ArrayBuffer (what Response, Blob and File accept). */
export type Bytes = Uint8Array<ArrayBuffer>
export type Entry = { name: string; data: Uint8Array }

export type PagesOptions = {
  /** Number of generated pages (default 3), named 001.jpg, 002.jpg... unless `names` is given. */
  pages?: number
  /** Page names; their count wins over `pages`. */
  names?: string[]
  /** Extra raw entries written after the pages (ComicInfo.xml, folders, junk). */
  entries?: Entry[]
  /** Page size in px (default 16x24: tiny keeps suites fast). */
  width?: number
  height?: number
  /** Colour seed; defaults to one derived from the output path, so two files never share bytes. */
  seed?: number
}

const seedOf = (text: string): number => crc32(text) % 100_000

/** Numbers in [0, 1) drawn from `seed` (mulberry32): the same seed gives the same pages. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A JPEG of one solid colour chosen by `seed`, so pages (and archive ids) differ. */
export async function makeJpeg(width: number, height: number, seed = 0): Promise<Bytes> {
  const hue = (seed * 2654435761) >>> 0
  const background = { r: hue & 0xff, g: (hue >>> 8) & 0xff, b: (hue >>> 16) & 0xff }
  const bytes = await sharp({ create: { width, height, channels: 3, background } })
    .jpeg({ quality: 80 })
    .toBuffer()
  return new Uint8Array(bytes)
}

/** Pages as entries, in the given order (callers shuffle names to test natural sort). */
export async function makePages(path: string, options: PagesOptions = {}): Promise<Entry[]> {
  const names =
    options.names ??
    Array.from({ length: options.pages ?? 3 }, (_, i) => `${String(i + 1).padStart(3, '0')}.jpg`)
  const seed = options.seed ?? seedOf(path)
  const pages = await Promise.all(
    names.map(async (name, i) => ({
      name,
      data: await makeJpeg(options.width ?? 16, options.height ?? 24, seed * 1000 + i),
    })),
  )
  return [...pages, ...(options.entries ?? [])]
}

async function writeOut(path: string, bytes: Uint8Array): Promise<string> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, bytes)
  return path
}

// ---- ZIP ----

export type ZipEntry = Entry & {
  compression?: 'store' | 'deflate'
  /** General-purpose flags to add (bit 0 = encrypted). */
  flags?: number
  /** Lie about the uncompressed size in both headers. */
  declaredSize?: number
  /** Use these bytes as the stored/compressed payload instead of computing it. */
  payload?: Uint8Array
  /** Unix file mode for the central directory (made by Unix), e.g. 0o120777 for a symlink. */
  unixMode?: number
}

const DOS_TIME = 0x6000 // 12:00:00
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1

/** A minimal ZIP writer: local headers, data, central directory, end record (no zip64). */
export function buildZip(entries: ZipEntry[]): Bytes {
  const chunks: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const deflate = entry.compression === 'deflate'
    const encoded = deflate ? deflateRawSync(entry.data) : entry.data
    const payload = Buffer.from(entry.payload ?? encoded)
    const flags = 0x800 | (entry.flags ?? 0)
    const fields = (h: Buffer, at: number) => {
      h.writeUInt16LE(20, at)
      h.writeUInt16LE(flags, at + 2)
      h.writeUInt16LE(deflate ? 8 : 0, at + 4)
      h.writeUInt16LE(DOS_TIME, at + 6)
      h.writeUInt16LE(DOS_DATE, at + 8)
      h.writeUInt32LE(crc32(entry.data), at + 10)
      h.writeUInt32LE(payload.length, at + 14)
      h.writeUInt32LE(entry.declaredSize ?? entry.data.length, at + 18)
      h.writeUInt16LE(name.length, at + 22)
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    fields(local, 4)
    const dir = Buffer.alloc(46)
    dir.writeUInt32LE(0x02014b50, 0)
    dir.writeUInt16LE(entry.unixMode === undefined ? 20 : (3 << 8) | 20, 4)
    fields(dir, 6)
    if (entry.unixMode !== undefined) dir.writeUInt32LE((entry.unixMode << 16) >>> 0, 38)
    dir.writeUInt32LE(offset, 42)
    central.push(dir, name)
    chunks.push(local, name, payload)
    offset += local.length + name.length + payload.length
  }
  const dirBytes = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(dirBytes.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...chunks, dirBytes, end]))
}

export type CbzOptions = PagesOptions & { compression?: 'store' | 'deflate' }

/** A CBZ of `pages` tiny JPEGs (default 3 stored pages of 16x24). Returns `path`. */
export async function makeCbz(path: string, options: CbzOptions = {}): Promise<string> {
  const entries = await makePages(path, options)
  const zip = buildZip(entries.map((e) => ({ ...e, compression: options.compression })))
  return writeOut(path, zip)
}

const MiB = 1024 * 1024

/**
 * A zip bomb named page.jpg. 'ratio': 16 MiB of zeros, honestly declared (~1000:1);
 * 'declared': claims 300 MiB; 'lying': claims 1 KiB but inflates to 16 MiB.
 */
export async function makeZipBomb(
  path: string,
  mode: 'ratio' | 'declared' | 'lying' = 'ratio',
): Promise<string> {
  const zeros = new Uint8Array(16 * MiB)
  const payload = deflateRawSync(zeros)
  const declaredSize = mode === 'declared' ? 300 * MiB : mode === 'lying' ? 1024 : undefined
  const entry = { name: 'page.jpg', data: zeros, payload, declaredSize }
  return writeOut(path, buildZip([{ ...entry, compression: 'deflate' }]))
}

/** A zip whose second entry is named `name` (e.g. '../x.jpg'): readers must refuse it. */
export async function makeTraversalZip(path: string, name = '../x.jpg'): Promise<string> {
  const [page] = await makePages(path, { pages: 1 })
  return writeOut(path, buildZip([page!, { name, data: page!.data }]))
}

/** A zip with the encrypted flag on its page (payload is not real ZipCrypto: never decrypted). */
export async function makeEncryptedZip(path: string): Promise<string> {
  const [page] = await makePages(path, { pages: 1 })
  // Traditional encryption prefixes 12 header bytes to the data.
  const payload = new Uint8Array([...new Uint8Array(12).fill(7), ...page!.data])
  return writeOut(path, buildZip([{ ...page!, flags: 1, payload }]))
}

// ---- TAR ----

function tarHeader(name: string, size: number, type: string, linkName = ''): Buffer {
  const h = Buffer.alloc(512)
  h.write(name.slice(0, 100), 0, 'utf8')
  h.write(linkName.slice(0, 100), 157, 'utf8')
  h.write('0000644\0', 100)
  h.write('0000000\0', 108)
  h.write('0000000\0', 116)
  h.write(size.toString(8).padStart(11, '0') + '\0', 124)
  h.write('14700000000\0', 136)
  h.write(type, 156)
  h.write('ustar\0', 257)
  h.write('00', 263)
  h.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of h) sum += byte
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148)
  return h
}

const padBlock = (data: Uint8Array): Buffer =>
  Buffer.concat([Buffer.from(data), Buffer.alloc((512 - (data.length % 512)) % 512)])

export type TarOptions = PagesOptions & {
  /** How names over 100 bytes are written: GNU 'L' records (default) or pax 'x' path records. */
  longNames?: 'gnu' | 'pax'
}

/** "<length> key=value\n" where length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const base = Buffer.byteLength(` ${key}=${value}\n`)
  let length = base + String(base).length
  if (String(length).length !== String(base).length) length = base + String(length).length
  return Buffer.from(`${length} ${key}=${value}\n`)
}

/** A ustar archive (directories get their own entries). */
export function buildTar(entries: Entry[], longNames: 'gnu' | 'pax' = 'gnu'): Bytes {
  const blocks: Buffer[] = []
  const dirs = new Set<string>()
  for (const { name, data } of entries) {
    const parts = name.split('/').slice(0, -1)
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/') + '/'
      if (!dirs.has(dir) && dir.length <= 100) blocks.push(tarHeader(dir, 0, '5'))
      dirs.add(dir)
    }
    if (Buffer.byteLength(name) > 100) {
      const record = longNames === 'gnu' ? Buffer.from(name + '\0') : paxRecord('path', name)
      blocks.push(tarHeader('././@LongLink', record.length, longNames === 'gnu' ? 'L' : 'x'))
      blocks.push(padBlock(record))
    }
    blocks.push(tarHeader(name, data.length, '0'), padBlock(data))
  }
  blocks.push(Buffer.alloc(1024))
  return new Uint8Array(Buffer.concat(blocks))
}

/** A tar entry that is not a regular file: what a reader must never count as a page. */
export type SpecialTarEntry = {
  name: string
  kind: 'symlink' | 'hardlink' | 'chardev' | 'blockdev' | 'fifo'
  /** Link target (links only). */
  target?: string
}

const TAR_TYPE_OF: Record<SpecialTarEntry['kind'], string> = {
  hardlink: '1',
  symlink: '2',
  chardev: '3',
  blockdev: '4',
  fifo: '6',
}

/** A ustar archive of pages followed by link and device entries (image-looking names). */
export async function makeTarWithSpecials(
  path: string,
  options: PagesOptions & { specials: SpecialTarEntry[]; gzip?: boolean },
): Promise<string> {
  const pages = buildTar(await makePages(path, options)).subarray(0, -1024)
  const specials = options.specials.map((s) =>
    tarHeader(s.name, 0, TAR_TYPE_OF[s.kind], s.target ?? ''),
  )
  const tar = Buffer.concat([pages, ...specials, Buffer.alloc(1024)])
  return writeOut(path, options.gzip ? gzipSync(tar) : new Uint8Array(tar))
}

export async function makeTar(path: string, options: TarOptions = {}): Promise<string> {
  return writeOut(path, buildTar(await makePages(path, options), options.longNames))
}

export async function makeTarGz(path: string, options: TarOptions = {}): Promise<string> {
  return writeOut(path, gzipSync(buildTar(await makePages(path, options), options.longNames)))
}

/** buildTar() compressed by 7za as bzip2 (`-tbzip2`) or xz (`-txz`): Node writes neither. */
async function compressTar(path: string, tar: Uint8Array, type: 'bzip2' | 'xz'): Promise<string> {
  return run7z(path, [{ name: 'book.tar', data: tar }], [`-t${type}`], [], ['book.tar'])
}

/** A bzip2-compressed tar of `pages` (built by buildTar, compressed by 7za). */
export async function makeTarBz2(path: string, options: TarOptions = {}): Promise<string> {
  return compressTar(path, buildTar(await makePages(path, options), options.longNames), 'bzip2')
}

/** An xz-compressed tar of `pages` (built by buildTar, compressed by 7za). */
export async function makeTarXz(path: string, options: TarOptions = {}): Promise<string> {
  return compressTar(path, buildTar(await makePages(path, options), options.longNames), 'xz')
}

// ---- 7z, bzip2, xz (7za from the 7zip-bin devDependency) ----

let sevenZip: Promise<string> | undefined

/**
 * The 7za binary shipped inside the 7zip-bin package, never one found on PATH. npm may unpack it
 * without its exec bit, so it is made executable on first use.
 */
function find7za(): Promise<string> {
  sevenZip ??= (async () => {
    if (!isAbsolute(path7za))
      throw new Error(
        `7zip-bin points at "${path7za}" on PATH (USE_SYSTEM_7ZA is set): unset it, the fixtures use only the bundled 7za`,
      )
    try {
      await access(path7za, constants.X_OK)
    } catch {
      try {
        await chmod(path7za, 0o755)
      } catch (error) {
        throw new Error(
          `the 7za binary of the 7zip-bin package is missing or cannot be made executable (${path7za}): run npm install (${error})`,
        )
      }
    }
    return path7za
  })()
  return sevenZip
}

/** Runs 7za `a` over the entries staged in a temp folder, adding `inputs` (default all). */
async function run7z(
  path: string,
  entries: Entry[],
  args: string[],
  symlinks: { name: string; target: string }[] = [],
  inputs = ['.'],
): Promise<string> {
  const cli = await find7za()
  const staging = await mkdtemp(join(tmpdir(), 'tankobun-7z-'))
  try {
    for (const entry of entries) {
      await mkdir(dirname(join(staging, entry.name)), { recursive: true })
      await writeFile(join(staging, entry.name), entry.data)
    }
    for (const link of symlinks) await symlink(link.target, join(staging, link.name))
    await mkdir(dirname(path), { recursive: true })
    await rm(path, { force: true })
    const proc = Bun.spawn([cli, 'a', ...args, '-bd', '-y', path, ...inputs], {
      cwd: staging,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ])
    if (code !== 0) throw new Error(`7za failed (exit ${code}): ${err || out}`)
    return path
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/**
 * A 7z archive made with 7za; solid by default, as 7-Zip itself does. `symlinks` are
 * stored as links (`-snl`), not as the files they point to.
 */
export async function make7z(
  path: string,
  options: PagesOptions & {
    solid?: boolean
    password?: string
    symlinks?: { name: string; target: string }[]
  } = {},
): Promise<string> {
  const args = ['-t7z', options.solid === false ? '-ms=off' : '-ms=on']
  if (options.password) args.push(`-p${options.password}`)
  if (options.symlinks) args.push('-snl')
  return run7z(path, await makePages(path, options), args, options.symlinks)
}

/** A zip compressed with a codec yauzl lacks (7-Zip can write these), via 7za. */
export async function makeZipWith7z(
  path: string,
  options: PagesOptions & { method: 'BZip2' | 'LZMA' },
): Promise<string> {
  return run7z(path, await makePages(path, options), ['-tzip', `-mm=${options.method}`])
}

// ---- RAR4 (stored) ----

function rarBlock(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(7)
  head.writeUInt8(type, 2)
  head.writeUInt16LE(flags, 3)
  head.writeUInt16LE(7 + body.length, 5)
  const crcd = Buffer.concat([head.subarray(2), body])
  head.writeUInt16LE(crc32(crcd) & 0xffff, 0)
  return Buffer.concat([head, body])
}

/** A RAR 4 archive of STORED entries, written by hand: no RAR creator is packaged. */
export function buildRar4(entries: Entry[]): Bytes {
  const marker = Buffer.from([0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00])
  const blocks: Buffer[] = [marker, rarBlock(0x73, 0, Buffer.alloc(6))]
  for (const { name, data } of entries) {
    const fileName = Buffer.from(name.replaceAll('/', '\\'), 'latin1')
    const body = Buffer.alloc(25)
    body.writeUInt32LE(data.length, 0) // packed size
    body.writeUInt32LE(data.length, 4) // unpacked size
    body.writeUInt8(2, 8) // host OS: Win32
    body.writeUInt32LE(crc32(data), 9)
    body.writeUInt32LE((DOS_DATE << 16) | DOS_TIME, 13)
    body.writeUInt8(20, 17) // version needed: 2.0
    body.writeUInt8(0x30, 18) // method: store
    body.writeUInt16LE(fileName.length, 19)
    body.writeUInt32LE(0x20, 21) // attributes: archive
    // 0x8000: a data area (ADD_SIZE = packed size) follows the header.
    blocks.push(rarBlock(0x74, 0x8000, Buffer.concat([body, fileName])), Buffer.from(data))
  }
  blocks.push(rarBlock(0x7b, 0x4000, Buffer.alloc(0)))
  return new Uint8Array(Buffer.concat(blocks))
}

export async function makeRar4(path: string, options: PagesOptions = {}): Promise<string> {
  return writeOut(path, buildRar4(await makePages(path, options)))
}

// ---- broken and hostile files ----

export type CorruptKind = 'garbage' | 'truncated-zip' | 'truncated-rar' | 'truncated-tar'

/** A file that claims (or used) to be an archive but cannot be read. */
export async function makeCorrupt(
  path: string,
  kind: CorruptKind = 'truncated-zip',
): Promise<string> {
  if (kind === 'garbage')
    return writeOut(
      path,
      new Uint8Array(4096).map((_, i) => (i * 7919) % 251),
    )
  const entries = await makePages(path, { pages: 3, width: 64, height: 64 })
  const whole =
    kind === 'truncated-zip'
      ? buildZip(entries)
      : kind === 'truncated-rar'
        ? buildRar4(entries)
        : buildTar(entries)
  // Cut inside a block, past the first entry: listings must not pass for complete.
  return writeOut(path, whole.subarray(0, Math.floor(whole.length / 2) + 100))
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), Buffer.from(data)])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A tiny PNG whose header declares `width` x `height` (default 20000x20000 = 400 MP). */
export function makeImageBomb(width = 20_000, height = 20_000): Bytes {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.writeUInt8(8, 8) // bit depth
  ihdr.writeUInt8(0, 9) // greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const idat = deflateSync(Buffer.alloc(width + 1))
  return new Uint8Array(
    Buffer.concat([
      signature,
      pngChunk('IHDR', ihdr),
      pngChunk('IDAT', idat),
      pngChunk('IEND', new Uint8Array()),
    ]),
  )
}
