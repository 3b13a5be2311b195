// What the rest of the server needs from page images (implemented in src/images/thumbnailer.ts).
export type Thumbnailer = {
  /** Resizes an image to `height` px tall (default 500) and writes it atomically to outPath. */
  thumbnail(
    input: Uint8Array,
    outPath: string,
    options: { format: 'webp' | 'jpeg'; height?: number },
  ): Promise<void>
  /** Natural pixel size read from the image header. */
  dimensions(input: Uint8Array): Promise<{ width: number; height: number }>
  close(): Promise<void>
}
