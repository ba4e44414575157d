// The one place that says which Chromium the tests, benchmarks and scripts launch. First match
// wins: TOOLMARK_CHROMIUM, then Debian's /usr/bin/chromium, then the Chromium that
// `npx playwright install chromium` downloaded.
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

const DEBIAN = '/usr/bin/chromium'

/** Flags every launch uses: headless, and kept off the network (no updates, no sync, no QUIC). */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
])

/** Where Playwright keeps its own Chromium, whether or not it was downloaded. */
function playwrightChromium() {
  try {
    const { chromium } = createRequire(import.meta.url)('playwright')
    return chromium.executablePath()
  } catch {
    return undefined
  }
}

/**
 * The Chromium to launch, or an error that names the three ways to provide one. The parameters
 * exist for tests.
 */
export function chromiumPath(env = process.env, debian = DEBIAN, playwright = playwrightChromium) {
  const chosen = env.TOOLMARK_CHROMIUM
  if (chosen) {
    if (existsSync(chosen)) return chosen
    throw new Error(`TOOLMARK_CHROMIUM is set to ${chosen}, but no file is there.`)
  }
  if (existsSync(debian)) return debian
  const downloaded = playwright()
  if (downloaded && existsSync(downloaded)) return downloaded
  throw new Error(
    [
      'No Chromium found for the browser tests. Provide one of:',
      '  1. TOOLMARK_CHROMIUM=/path/to/chromium (any Chromium or Chrome build),',
      `  2. ${debian} (Debian/Ubuntu: apt-get install chromium),`,
      `  3. Playwright's Chromium: npx playwright install chromium${downloaded ? ` (expected at ${downloaded})` : ''}.`,
    ].join('\n'),
  )
}

/** Playwright launch options: the Chromium above with {@link CHROMIUM_ARGS} and `extraArgs`. */
export function chromiumLaunchOptions(extraArgs = []) {
  return { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, ...extraArgs] }
}

/**
 * As a Vitest `globalSetup`: stops a browser project at its start with the message above, before
 * Playwright tries to launch a browser that is not there.
 */
export function setup() {
  chromiumPath()
}
