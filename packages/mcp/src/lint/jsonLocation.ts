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

/**
 * The offset where the value at a path (`tools[1].name`) starts in a valid JSON text, or the
 * deepest ancestor found. A small scanner, only for pointing at the line of a shape error.
 */
export function offsetOfPath(text: string, path: string): number | undefined {
  const wanted = path.match(/[^.[\]]+/g) ?? []
  let i = 0
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++
  }
  const skipString = () => {
    i++
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++
  }
  /** Skips one value; when `depth` segments of the path match so far, descends to the next. */
  const value = (depth: number): number | undefined => {
    ws()
    const start = i
    if (depth === wanted.length) return start
    if (text[i] === '{') {
      i++
      for (;;) {
        ws()
        if (text[i] === '}') break
        const keyStart = i + 1
        skipString()
        const key = JSON.parse(text.slice(keyStart - 1, i)) as string
        ws()
        i++ // ':'
        if (key === wanted[depth]) return value(depth + 1) ?? start
        skip()
        ws()
        if (text[i] === ',') i++
      }
      i++
      return undefined
    }
    if (text[i] === '[') {
      i++
      for (let index = 0; ; index++) {
        ws()
        if (text[i] === ']') break
        if (String(index) === wanted[depth]) return value(depth + 1) ?? start
        skip()
        ws()
        if (text[i] === ',') i++
      }
      i++
      return undefined
    }
    skip()
    return undefined
  }
  const skip = () => {
    ws()
    if (text[i] === '"') return skipString()
    if (text[i] === '{' || text[i] === '[') {
      const close = text[i] === '{' ? '}' : ']'
      i++
      for (;;) {
        ws()
        if (text[i] === close || i >= text.length) break
        skip()
        ws()
        if (text[i] === ':' || text[i] === ',') i++
      }
      i++
      return
    }
    while (i < text.length && !/[\s,\]}:]/.test(text[i])) i++
  }
  try {
    return value(0)
  } catch {
    return undefined
  }
}
