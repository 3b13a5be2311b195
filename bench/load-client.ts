// Load client for bench/pages-http.ts, run in its own process so it does not share the server's
// event loop: fetches the given URLs round-robin with keep-alive for a fixed time and prints JSON.
const [urlsFile, cookie, seconds = '3', concurrency = '16'] = process.argv.slice(2)
const urls = (await Bun.file(urlsFile!).text()).trim().split('\n')
const until = performance.now() + Number(seconds) * 1000
let served = 0
let bytes = 0
const started = performance.now()
await Promise.all(
  Array.from({ length: Number(concurrency) }, async (_, worker) => {
    for (let i = worker; performance.now() < until; i += Number(concurrency)) {
      const res = await fetch(urls[i % urls.length]!, { headers: { cookie: cookie! } })
      bytes += (await res.arrayBuffer()).byteLength
      served++
    }
  }),
)
const secs = (performance.now() - started) / 1000
console.log(
  JSON.stringify({ served, pagesPerSec: served / secs, mbPerSec: bytes / secs / 1024 / 1024 }),
)
export {}
