/** Line and column (1-based) of an offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)))
  const lines = before.split('\n')
  return { line: lines.length, column: lines[lines.length - 1].length + 1 }
}

/** Where `JSON.parse` gave up, from its message (`… at position 63` or `(line 4 column 31)`). */
export function syntaxErrorOffset(text: string, error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : String(error)
  const position = /position (\d+)/.exec(message)
  if (position) return Number(position[1])
  const lineCol = /line (\d+) column (\d+)/.exec(message)
  if (lineCol) {
    const lines = text.split('\n').slice(0, Number(lineCol[1]) - 1)
    return lines.reduce((n, l) => n + l.length + 1, 0) + Number(lineCol[2]) - 1
  }
  return undefined
}

/** A position in a JSON text that skips whitespace, strings and whole values. */
class Cursor {
  constructor(
    readonly text: string,
    public i = 0,
  ) {}

  ws(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i])) this.i++
  }

  skipString(): void {
    const { text } = this
    this.i++
    while (this.i < text.length && text[this.i] !== '"') this.i += text[this.i] === '\\' ? 2 : 1
    this.i++
  }

  /** Skips one value of any kind. */
  skip(): void {
    const { text } = this
    this.ws()
    if (text[this.i] === '"') return this.skipString()
    if (text[this.i] === '{' || text[this.i] === '[') {
      const close = text[this.i] === '{' ? '}' : ']'
      this.i++
      for (;;) {
        this.ws()
        if (text[this.i] === close || this.i >= text.length) break
        this.skip()
        this.ws()
        if (text[this.i] === ':' || text[this.i] === ',') this.i++
      }
      this.i++
      return
    }
    while (this.i < text.length && !/[\s,\]}:]/.test(text[this.i])) this.i++
  }
}

/**
 * The offset where the value at a path (`tools[1].name`, or its segments) starts in a valid JSON
 * text, or the deepest ancestor found. A small scanner, only for pointing at the line of a shape
 * error or a finding.
 */
export function offsetOfPath(
  text: string,
  path: string | readonly string[],
  from = 0,
): number | undefined {
  const wanted = typeof path === 'string' ? (path.match(/[^.[\]]+/g) ?? []) : path
  const c = new Cursor(text, from)
  /** Skips one value; when `depth` segments of the path match so far, descends to the next. */
  const value = (depth: number): number | undefined => {
    c.ws()
    const start = c.i
    if (depth === wanted.length) return start
    if (text[c.i] === '{') {
      c.i++
      for (;;) {
        c.ws()
        if (text[c.i] === '}' || c.i >= text.length) break
        const keyStart = c.i
        c.skipString()
        const key = JSON.parse(text.slice(keyStart, c.i)) as string
        c.ws()
        c.i++ // ':'
        if (key === wanted[depth]) return value(depth + 1) ?? start
        c.skip()
        c.ws()
        if (text[c.i] === ',') c.i++
      }
      c.i++
      return undefined
    }
    if (text[c.i] === '[') {
      c.i++
      for (let index = 0; ; index++) {
        c.ws()
        if (text[c.i] === ']' || c.i >= text.length) break
        if (String(index) === wanted[depth]) return value(depth + 1) ?? start
        c.skip()
        c.ws()
        if (text[c.i] === ',') c.i++
      }
      c.i++
      return undefined
    }
    c.skip()
    return undefined
  }
  try {
    return value(0)
  } catch {
    return undefined
  }
}

/**
 * Where each element of the array at `path` starts, in one pass: finding the 5,000th tool by its
 * path would scan the 4,999 before it again.
 */
export function elementOffsets(text: string, path: string): number[] {
  const start = offsetOfPath(text, path)
  if (start === undefined || text[start] !== '[') return []
  const c = new Cursor(text, start + 1)
  const out: number[] = []
  try {
    for (;;) {
      c.ws()
      if (text[c.i] === ']' || c.i >= text.length) break
      out.push(c.i)
      c.skip()
      c.ws()
      if (text[c.i] === ',') c.i++
    }
  } catch {
    // A stack too deep to skip: the tools found so far keep their places.
  }
  return out
}

/** Line and column (1-based) of offsets in one text, each in a binary search over line starts. */
export function lineLocator(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (starts[mid] <= offset) low = mid
      else high = mid - 1
    }
    return { line: low + 1, column: offset - starts[low] + 1 }
  }
}
