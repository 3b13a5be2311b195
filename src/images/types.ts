// What the rest of the server needs from page images (implemented in src/images/thumbnailer.ts).
export type Thumbnailer = {
  /**
   * Resizes an image to `height` px tall (default 500) and writes it atomically to outPath; with
   * `hash`, also answers the dHash of the thumbnail's pixels (as `signature` would of the file).
   * `sha1` is the SHA-1 of the bytes written, taken before the file can be removed by anyone.
   */
  thumbnail(
    input: Uint8Array,
    outPath: string,
    options: { format: 'webp' | 'jpeg'; height?: number; hash?: boolean },
  ): Promise<{ hash: string | null; sha1: string }>
  /** Natural pixel size read from the image header. */
  dimensions(input: Uint8Array): Promise<{ width: number; height: number }>
  /**
   * A page's perceptual hash (dHash, 64 bits as 16 hex; null unless `hash`) and its sharpness
   * (variance of the Laplacian at `sharpnessHeight` px tall; 0 when `sharpnessHeight` is 0, which
   * skips that decode).
   */
  signature(
    input: Uint8Array,
    options: { sharpnessHeight: number; hash: boolean },
  ): Promise<PageSignature>
  close(): Promise<void>
}

export type PageSignature = { hash: string | null; sharpness: number }
