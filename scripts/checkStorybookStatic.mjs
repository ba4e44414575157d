// Opens every story and docs page of a built Storybook (storybook-static/, from
// `npm run build-storybook`) in Chromium, the way a reader of the published Storybook meets it,
// and fails naming each entry that shows Storybook's error panel, whose story or play function
// threw, whose checks ended in error, or that logged a console error or an uncaught exception.
// `node scripts/checkStorybookStatic.mjs [dir]`; exit 1 on any failure. Run by .ci/run.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright'
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
}

/** A static file server for `dir` on a free loopback port. */
function serve(dir) {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    let file = path.join(dir, decodeURIComponent(url.pathname))
    if (!file.startsWith(dir)) return void response.writeHead(403).end()
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html')
    if (!existsSync(file)) return void response.writeHead(404).end()
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      // Cached, so each entry's fresh page reuses the compiled bundle.
      'cache-control': 'public, max-age=600',
    })
    createReadStream(file).pipe(response)
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

/** In the page, before Storybook boots: records what the preview's channel says about the entry. */
function listen() {
  const seen = (window.__toolmarkStoryEvents = [])
  const events = [
    'storyFinished',
    'storyErrored',
    'storyThrewException',
    'playFunctionThrewException',
    'unhandledErrorsWhilePlaying',
    'storyMissing',
    'docsRendered',
  ]
  const attach = () => {
    const channel = window.__STORYBOOK_ADDONS_CHANNEL__
    if (!channel) return void setTimeout(attach, 1)
    for (const type of events) channel.on(type, (payload) => seen.push({ type, payload }))
  }
  attach()
}

/**
 * A fresh Chromium page on the built preview (iframe.html) for each entry, as a reader who opens
 * its link meets it. The server lets the browser cache the bundle, so later pages load faster.
 */
function createViewer(context, base, timeoutMs) {
  let page
  let problems = []
  const open = async (entry) => {
    page = await context.newPage()
    page.on('console', (message) => {
      if (message.type() !== 'error') return
      if (message.location()?.url?.endsWith('/favicon.ico')) return
      const where = message.location()?.url
      problems.push(`console error: ${message.text()}${where ? ` (${where})` : ''}`)
    })
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
    page.on('response', (response) => {
      // The browser's own favicon request is not the story's.
      if (new URL(response.url()).pathname === '/favicon.ico') return
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`)
    })
    await page.goto(
      `${base}/iframe.html?id=${encodeURIComponent(entry.id)}&viewMode=${mode(entry)}`,
    )
  }
  const show = async (entry) => {
    problems = []
    if (!page) await open(entry)
    else {
      await page.evaluate(
        ([storyId, viewMode]) => {
          window.__toolmarkStoryEvents.length = 0
          window.__STORYBOOK_ADDONS_CHANNEL__.emit('setCurrentStory', { storyId, viewMode })
        },
        [entry.id, mode(entry)],
      )
    }
    const ends = mode(entry) === 'docs' ? ['docsRendered', ...FAILED] : ['storyFinished', ...FAILED]
    try {
      await page.waitForFunction(
        ([types, id]) =>
          window.__toolmarkStoryEvents?.some(
            (e) => types.includes(e.type) && (e.payload?.storyId ?? e.payload ?? id) === id,
          ),
        [ends, entry.id],
        { timeout: timeoutMs, polling: 50 },
      )
    } catch {
      problems.push(`did not finish rendering within ${timeoutMs} ms`)
    }
    // Docs pages render their stories after `docsRendered`: give them a moment to log.
    if (mode(entry) === 'docs') await page.waitForTimeout(500)
    const state = await page.evaluate(() => ({
      errorPanel: document.body.classList.contains('sb-show-errordisplay'),
      message: document.querySelector('#error-message')?.textContent?.trim() ?? '',
      events: window.__toolmarkStoryEvents ?? [],
    }))
    if (state.errorPanel) problems.push(`error panel: ${state.message.slice(0, 300)}`)
    for (const { type, payload } of state.events) {
      if (FAILED.includes(type) || type === 'unhandledErrorsWhilePlaying')
        problems.push(`${type}: ${JSON.stringify(payload)?.slice(0, 300)}`)
      if (type === 'storyFinished' && payload?.status === 'error')
        problems.push(
          `finished with status error: ${JSON.stringify(payload.reporters)?.slice(0, 300)}`,
        )
    }
    const found = problems
    await close()
    return found
  }
  const close = async () => {
    await page?.close()
    page = undefined
  }
  return { show, close }
}

const FAILED = ['storyErrored', 'storyThrewException', 'playFunctionThrewException', 'storyMissing']
const mode = (entry) => (entry.type === 'docs' ? 'docs' : 'story')

export async function checkStorybookStatic({
  dir = path.join(root, 'storybook-static'),
  timeoutMs = 60_000,
  concurrency = Number(process.env.TOOLMARK_STORY_PAGES ?? 1),
  only,
} = {}) {
  const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'))
  const entries = Object.values(index.entries).filter(
    (entry) => (entry.type === 'story' || entry.type === 'docs') && (!only || only(entry)),
  )
  const server = await serve(path.resolve(dir))
  const base = `http://127.0.0.1:${server.address().port}`
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_ARGS],
  })
  const failures = []
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.addInitScript(listen)
    // One page at a time by default (TOOLMARK_STORY_PAGES for more): a starved page times out.
    const queue = [...entries]
    const worker = async () => {
      const viewer = createViewer(context, base, timeoutMs)
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        const started = Date.now()
        const problems = await viewer.show(entry)
        if (process.env.TOOLMARK_VERBOSE) console.log(`${entry.id}: ${Date.now() - started} ms`)
        if (problems.length > 0)
          failures.push({ id: entry.id, title: `${entry.title} › ${entry.name}`, problems })
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    const order = entries.map((entry) => entry.id)
    failures.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
  } finally {
    await browser.close()
    server.close()
  }
  return { checked: entries.length, failures }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : undefined
  const filter = process.env.TOOLMARK_STORY
  const only = filter ? (entry) => entry.id.includes(filter) : undefined
  const { checked, failures } = await checkStorybookStatic({ dir, only })
  for (const failure of failures) {
    console.error(`✗ ${failure.title} (${failure.id})`)
    for (const problem of failure.problems) console.error(`    ${problem}`)
  }
  console.log(`${checked} stories and docs pages opened, ${failures.length} failed`)
  process.exit(failures.length > 0 ? 1 : 0)
}
