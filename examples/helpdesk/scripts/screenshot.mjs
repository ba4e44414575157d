// Takes the README's screenshot: the helpdesk with the assistant's request in the dialog.
// Usage (from the repository root): node examples/helpdesk/scripts/screenshot.mjs [out.png]
import { spawn } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright'
import { chromiumLaunchOptions } from '../../../scripts/chromium.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs/images/helpdesk.png'))

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address()
    server.close(() => resolve(port))
  })
})
const dataDir = mkdtempSync(path.join(tmpdir(), 'helpdesk-shot-'))
const app = spawn('npm', ['start'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HELPDESK_DATA_DIR: dataDir },
  stdio: 'ignore',
  detached: true,
})
const url = `http://localhost:${port}`
let browser
try {
  for (let i = 0; ; i++) {
    if (i > 360) throw new Error(`the app did not start on ${url}`)
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    await new Promise((r) => setTimeout(r, 250))
  }
  browser = await chromium.launch(
    chromiumLaunchOptions(['--enable-features=WebMCP', '--hide-scrollbars']),
  )
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  await page.goto(`${url}/`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  const box = page.getByRole('textbox', { name: 'Message the assistant' })
  await box.fill('new ticket: printer jammed, high priority')
  await box.press('Enter')
  await page.getByRole('alertdialog').waitFor()
  await page.waitForTimeout(600) // let the dialog's entrance settle
  mkdirSync(path.dirname(out), { recursive: true })
  await page.screenshot({ path: out })
  console.log(`saved ${path.relative(root, out)}`)
} finally {
  await browser?.close()
  try {
    process.kill(-app.pid, 'SIGTERM')
  } catch {}
  await new Promise((r) => app.once('exit', r))
  await new Promise((r) => setTimeout(r, 1000))
  rmSync(dataDir, { recursive: true, force: true })
}
