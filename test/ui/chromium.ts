// Launches the headless Chromium the UI tests and bench/ui.ts drive: the one inside the
// @sparticuz/chromium npm package (unpacked to the temp folder on first use), or the one named by
// TANKOBUN_CHROMIUM. No bun:test here, so benches can use it.
import chromium from '@sparticuz/chromium'
import { chromium as playwright, type Browser } from 'playwright-core'

// The package's Lambda flags, less the ones that weaken the page's security model (the XSS and CSP
// checks must run as in a user's browser) or run everything in one process; plus no background
// connections (this machine's network is closed).
const DROPPED_FLAGS = new Set([
  '--single-process',
  '--no-zygote',
  '--disable-web-security',
  '--allow-running-insecure-content',
])
const EXTRA_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export async function launchChromium(): Promise<Browser> {
  const system = process.env.TANKOBUN_CHROMIUM
  return playwright.launch({
    executablePath: system || (await chromium.executablePath()),
    args: [...chromium.args.filter((flag) => !DROPPED_FLAGS.has(flag)), ...EXTRA_FLAGS],
    headless: true,
  })
}
