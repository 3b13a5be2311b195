// End-to-end UI tests: a real Chromium (from the @sparticuz/chromium npm package, or the one named
// by TANKOBUN_CHROMIUM) driven by playwright-core against a real server. `uiTest` writes a
// screenshot of the page to test/artifacts/ when its body fails.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, it } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { startTestServer, TEST_PASSWORD, type TestServer, type Wire } from '../helpers/server.ts'
import { launchChromium } from './chromium.ts'

const ARTIFACTS = join(import.meta.dir, '..', 'artifacts')

let launched: Promise<Browser> | null = null

/** One browser per test file (each file gets fresh contexts from it). */
export function browser(): Promise<Browser> {
  launched ??= launchChromium()
  return launched
}

export async function closeBrowser(): Promise<void> {
  if (!launched) return
  const b = await launched
  launched = null
  await b.close()
}

/**
 * The file's server: started before its tests (then `ready` seeds it), stopped after them along
 * with the file's browser.
 */
export function useUiServer(
  options: Parameters<typeof startTestServer>[0],
  ready: (app: TestServer) => Promise<void> | void,
) {
  let app: TestServer | undefined
  beforeAll(async () => {
    app = await startTestServer(options)
    await ready(app)
  })
  afterAll(async () => {
    await closeBrowser()
    await app?.[Symbol.asyncDispose]()
  })
}

export type UiPage = { page: Page; context: BrowserContext; errors: string[] }

/** A fresh context (own cookies) with a page on the server's UI; page errors are collected. */
export async function openUi(app: TestServer, hash = '#/'): Promise<UiPage> {
  const context = await (await browser()).newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.setDefaultTimeout(10_000)
  await page.goto(app.url + '/' + hash)
  return { page, context, errors }
}

/** Logs in through the UI's login page and waits until the app shows the library. */
export async function logInThroughUi(app: TestServer, ui: UiPage, password = TEST_PASSWORD) {
  await ui.page.goto(app.url + '/#/login')
  await ui.page.getByLabel('Password').fill(password)
  await ui.page.getByRole('button', { name: 'Log in' }).click()
  await ui.page.getByRole('button', { name: 'Log out' }).waitFor()
}

/**
 * An `it` whose page is screenshotted to test/artifacts/<name>.png when the body throws. The body
 * receives a holder to register the page it uses.
 */
export function uiTest(
  name: string,
  body: (shot: { page?: Page }) => Promise<void>,
  timeout = 60_000,
) {
  it(
    name,
    async () => {
      const shot: { page?: Page } = {}
      try {
        await body(shot)
      } catch (error) {
        if (shot.page && !shot.page.isClosed()) {
          mkdirSync(ARTIFACTS, { recursive: true })
          const file = join(ARTIFACTS, `${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.png`)
          await shot.page.screenshot({ path: file, fullPage: true }).catch(() => {})
        }
        throw error
      }
    },
    timeout,
  )
}

/** Polls an API read until `check` holds (the UI saves after a short debounce). */
export async function until(
  read: () => Promise<Wire>,
  check: (body: Wire) => boolean,
): Promise<Wire> {
  let body: Wire = {}
  for (let i = 0; i < 100; i++) {
    body = await read()
    if (check(body)) return body
    await Bun.sleep(100)
  }
  throw new Error(`condition never held; last answer ${JSON.stringify(body)}`)
}
