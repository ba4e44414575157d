/**
 * What a terminal acts on instead of showing: C0 controls (ESC starts a sequence that can move
 * the cursor, clear the screen or set the title; tab and line feed too, since the formatter owns
 * the lines), DEL, C1 controls (U+009B is a CSI on its own), and the bidirectional controls and
 * line separators that reorder or break the line a person reads.
 */
const CONTROL =
  // eslint-disable-next-line no-control-regex -- escaping control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** What JSON.stringify leaves raw of those: all but the C0 controls, which it escapes. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

const hex = (char: string, width: number) => char.charCodeAt(0).toString(16).padStart(width, '0')

/**
 * A text from a manifest made safe to print: each control character shown as an escape, `\x1b`
 * for ASCII ones and `\u009b` for the others, so a hostile manifest cannot rewrite the terminal
 * and a person still sees what was there.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) =>
    char.charCodeAt(0) < 0x80 ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`,
  )
}

/** `JSON.stringify(value, null, 2)` with every control character escaped: the same JSON value. */
export function stringifyForTerminal(value: unknown): string {
  // Outside strings JSON holds only ASCII punctuation and spaces, so these are all in strings.
  return JSON.stringify(value, null, 2).replace(RAW_IN_JSON, (char) => `\\u${hex(char, 4)}`)
}
