// Opens every story and docs page of a built Storybook (storybook-static/, from
// `npm run build-storybook`) in Chromium, the way a reader of the published Storybook meets it,
// and fails naming each entry that shows Storybook's error panel, whose story or play function
// threw, whose checks ended in error, that logged a console error or an uncaught exception, or
// whose resources failed to load. Then it opens every entry again on a 390 px wide phone screen,
// and fails each one with anything wider than the room it has or text axe finds too faint.
// `node scripts/checkStorybookStatic.mjs [dir]`; exit 1 on any failure. Run by .ci/run.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright'
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** The screens every entry is opened on: the desktop one, then a phone for the stories. */
const DESKTOP = { width: 1280, height: 800 }
export const PHONE = { width: 390, height: 844 }
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
 * In the page: what sticks out sideways, as one line per element (the outermost ones only), or
 * nothing when everything fits. An element sticks out when it reaches past an edge of the
 * screen, or of the box around it that clips or scrolls it: a scrolling box reaches what lies
 * past its end (a wide table in it is fine), never what lies before its start (content centered
 * in a box too narrow for it, cut off on the left).
 */
function sideways() {
  const width = document.documentElement.clientWidth
  const found = []
  const scroll = document.documentElement.scrollWidth
  if (scroll > width) found.push(`the page scrolls sideways: ${scroll} px wide on ${width} px`)
  const clipperOf = (element) => {
    for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') return up
    }
    return null
  }
  const sticksOut = (element) => {
    const box = element.getBoundingClientRect()
    if (box.width === 0 || box.height === 0) return false
    const clipper = clipperOf(element)
    if (!clipper) return box.left < -0.5 || box.right > width + 0.5
    const room = clipper.getBoundingClientRect()
    // Text kept for screen readers only sits in a 1 px box on purpose.
    if (room.width <= 1 || room.height <= 1) return false
    const start = room.left + clipper.clientLeft - clipper.scrollLeft
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(clipper).overflowX)
    const end = room.left + clipper.clientLeft + clipper.clientWidth
    return box.left < start - 0.5 || (!scrolls && box.right > end + 0.5)
  }
  const name = (element) => {
    const id = element.id ? `#${element.id}` : ''
    const classes = [...element.classList]
      .slice(0, 2)
      .map((c) => `.${c}`)
      .join('')
    const text = element.textContent?.trim().replace(/\s+/g, ' ').slice(0, 40) ?? ''
    return `<${element.tagName.toLowerCase()}${id}${classes}>${text ? ` “${text}”` : ''}`
  }
  for (const element of document.body.querySelectorAll('*')) {
    if (!sticksOut(element)) continue
    if (element.parentElement !== document.body && sticksOut(element.parentElement)) continue
    const box = element.getBoundingClientRect()
    found.push(
      `${name(element)} spans ${Math.round(box.left)}–${Math.round(box.right)} px ` +
        `(${Math.round(box.width)} px wide) on a ${width} px screen`,
    )
  }
  return found
}

/** axe's color-contrast violations on the page, as one line per element. */
async function contrastProblems(page) {
  await page.addScriptTag({ path: axeSource })
  return page.evaluate(async () => {
    const results = await window.axe.run(document, {
      runOnly: { type: 'rule', values: ['color-contrast'] },
      resultTypes: ['violations'],
    })
    return results.violations.flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id}: ${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
      ),
    )
  })
}

/** What an entry shows wrong on a phone: anything wider than its room, text too faint. */
async function phoneProblems(page) {
  const wide = await page.evaluate(sideways)
  const faint = await contrastProblems(page)
  return [...wide.map((line) => `overflow at ${PHONE.width} px: ${line}`), ...faint]
}

/**
 * A fresh Chromium page on the built preview (iframe.html) for each entry, as a reader who opens
 * its link meets it. The server lets the browser cache the bundle, so later pages load faster.
 * `inspect(page)` adds what else the entry shows wrong once it has rendered.
 */
function createViewer(context, base, timeoutMs, inspect) {
  let page
  let problems = []
  const closing = new WeakSet()
  const open = async (entry) => {
    const current = (page = await context.newPage())
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
    // A resource that never loaded (refused, blocked, cut off) is as missing as a 404.
    page.on('requestfailed', (request) => {
      // Closing the page cuts off what it still loads: that is the check's doing, not the story's.
      if (closing.has(current)) return
      problems.push(`failed to load: ${request.url()} (${request.failure()?.errorText})`)
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
    if (
      inspect &&
      state.events.some((e) => e.type === 'storyFinished' || e.type === 'docsRendered')
    )
      problems.push(...(await inspect(page)))
    const found = [...problems]
    await close()
    return found
  }
  const close = async () => {
    if (page) closing.add(page)
    await page?.close()
    page = undefined
  }
  return { show, close }
}

const FAILED = ['storyErrored', 'storyThrewException', 'playFunctionThrewException', 'storyMissing']
const mode = (entry) => (entry.type === 'docs' ? 'docs' : 'story')

/**
 * Opens the entries of the Storybook built in `dir`: every story and docs page on a desktop
 * screen, then again on a phone (`screens` picks either), and resolves with the ones
 * that failed and why.
 */
export async function checkStorybookStatic({
  dir = path.join(root, 'storybook-static'),
  timeoutMs = 60_000,
  concurrency = Number(process.env.TOOLMARK_STORY_PAGES ?? 1),
  only,
  screens = ['desktop', 'phone'],
} = {}) {
  const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'))
  const entries = Object.values(index.entries).filter(
    (entry) => (entry.type === 'story' || entry.type === 'docs') && (!only || only(entry)),
  )
  const jobs = [
    ...(screens.includes('desktop') ? entries.map((entry) => ({ entry, screen: 'desktop' })) : []),
    ...(screens.includes('phone') ? entries.map((entry) => ({ entry, screen: 'phone' })) : []),
  ]
  const server = await serve(path.resolve(dir))
  const base = `http://127.0.0.1:${server.address().port}`
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_ARGS],
  })
  const failures = []
  try {
    const contexts = {
      desktop: await browser.newContext({ viewport: DESKTOP }),
      phone: await browser.newContext({ viewport: PHONE }),
    }
    for (const context of Object.values(contexts)) await context.addInitScript(listen)
    // One page at a time by default (TOOLMARK_STORY_PAGES for more): a starved page times out.
    const queue = [...jobs]
    const worker = async () => {
      const viewers = {
        desktop: createViewer(contexts.desktop, base, timeoutMs),
        phone: createViewer(contexts.phone, base, timeoutMs, phoneProblems),
      }
      for (let job = queue.shift(); job; job = queue.shift()) {
        const { entry, screen } = job
        const started = Date.now()
        const problems = await viewers[screen].show(entry)
        if (process.env.TOOLMARK_VERBOSE)
          console.log(`${entry.id} (${screen}): ${Date.now() - started} ms`)
        if (problems.length > 0) {
          const where = screen === 'phone' ? ` (${PHONE.width} px)` : ''
          failures.push({
            id: entry.id,
            screen,
            title: `${entry.title} › ${entry.name}${where}`,
            problems,
          })
        }
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    const order = jobs.map((job) => `${job.screen}:${job.entry.id}`)
    const rank = (failure) => order.indexOf(`${failure.screen}:${failure.id}`)
    failures.sort((a, b) => rank(a) - rank(b))
  } finally {
    await browser.close()
    server.close()
  }
  return { checked: jobs.length, failures }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : undefined
  const filter = process.env.TOOLMARK_STORY
  const only = filter ? (entry) => entry.id.includes(filter) : undefined
  // TOOLMARK_STORY_SCREEN=phone (or desktop) opens the entries on that screen only.
  const screen = process.env.TOOLMARK_STORY_SCREEN
  const { checked, failures } = await checkStorybookStatic({
    dir,
    only,
    ...(screen ? { screens: [screen] } : {}),
  })
  for (const failure of failures) {
    console.error(`✗ ${failure.title} (${failure.id})`)
    for (const problem of failure.problems) console.error(`    ${problem}`)
  }
  console.log(`${checked} stories and docs pages opened, ${failures.length} failed`)
  process.exit(failures.length > 0 ? 1 : 0)
}
