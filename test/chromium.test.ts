// @vitest-environment node
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromiumPath } from '../scripts/chromium.mjs'

const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-chromium-'))
const file = (name: string) => {
  const full = path.join(dir, name)
  writeFileSync(full, '')
  return full
}
const missing = path.join(dir, 'missing')

describe('the Chromium the tests launch', () => {
  it('takes TOOLMARK_CHROMIUM first, even when the others exist', () => {
    const chosen = file('chosen')
    expect(chromiumPath({ TOOLMARK_CHROMIUM: chosen }, file('debian'), () => file('pw'))).toBe(
      chosen,
    )
  })

  it('says so when TOOLMARK_CHROMIUM names a file that is not there', () => {
    expect(() => chromiumPath({ TOOLMARK_CHROMIUM: missing }, file('debian'))).toThrow(
      `TOOLMARK_CHROMIUM is set to ${missing}, but no file is there.`,
    )
  })

  it("takes Debian's Chromium next, then Playwright's", () => {
    const debian = file('debian')
    const downloaded = file('playwright')
    expect(chromiumPath({}, debian, () => downloaded)).toBe(debian)
    expect(chromiumPath({}, missing, () => downloaded)).toBe(downloaded)
  })

  it('names the three ways to get one when none is there', () => {
    const attempt = () => chromiumPath({}, missing, () => path.join(dir, 'pw-missing'))
    expect(attempt).toThrow(/TOOLMARK_CHROMIUM=/)
    expect(attempt).toThrow(`${missing} (Debian/Ubuntu: apt-get install chromium)`)
    expect(attempt).toThrow(/npx playwright install chromium \(expected at .*pw-missing\)/)
  })
})
