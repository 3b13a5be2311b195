// Memory the isolate's limit does not count stays out of reach: WebAssembly memories and
// resizable or shared buffers live outside the heap the limit watches.

type Globals = Record<string, unknown>

/** The ArrayBuffer constructor of plugins: the native one, without resizable buffers. */
type PluginArrayBuffer = (this: unknown, length: number, options?: unknown) => ArrayBuffer

/**
 * Deletes WebAssembly, SharedArrayBuffer and Atomics from `G`, takes `resize` off every buffer and
 * answers the ArrayBuffer constructor to install in the native one's place (the caller defines
 * it; `buffer.constructor` already answers it).
 */
export function guardMemory(G: Globals): PluginArrayBuffer {
  delete G.WebAssembly
  delete G.SharedArrayBuffer
  delete G.Atomics
  const NativeArrayBuffer = G.ArrayBuffer as ArrayBufferConstructor
  // Named by its property, not `function ArrayBuffer`: the bundler renames a function that would
  // shadow a global another module uses, and plugins would see `ArrayBuffer.name` change.
  const ArrayBufferOfPlugins: PluginArrayBuffer = {
    ArrayBuffer: function (this: unknown, length: number, options?: unknown) {
      if (new.target === undefined) throw new TypeError("Constructor ArrayBuffer requires 'new'")
      if (options !== undefined && options !== null && Object(options).maxByteLength !== undefined)
        throw new RangeError('resizable ArrayBuffers are not available to plugins')
      return Reflect.construct(NativeArrayBuffer, [length], new.target)
    },
  }.ArrayBuffer
  Object.defineProperty(ArrayBufferOfPlugins, 'prototype', { value: NativeArrayBuffer.prototype })
  Object.defineProperty(ArrayBufferOfPlugins, 'isView', {
    value: NativeArrayBuffer.isView,
    writable: true,
    configurable: true,
  })
  Object.defineProperty(ArrayBufferOfPlugins, Symbol.species, {
    get() {
      return this
    },
    configurable: true,
  })
  Object.defineProperty(NativeArrayBuffer.prototype, 'constructor', {
    value: ArrayBufferOfPlugins,
    writable: true,
    configurable: true,
  })
  delete (NativeArrayBuffer.prototype as { resize?: unknown }).resize
  return ArrayBufferOfPlugins
}
