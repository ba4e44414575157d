import type { CSSProperties } from 'react'

/**
 * Characters that change how text reads without showing themselves: bidirectional controls
 * (embeddings, overrides, isolates, marks), zero-width and joiner characters, the soft hyphen,
 * invisible operators, fillers, tag characters, variation selectors of the supplement, line and
 * paragraph separators, and other control characters (tab and newline apart).
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0e\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udeef]/g

/** Short names for the characters agents use most to disguise text. */
const NAMES: Record<number, string> = {
  0x061c: 'ALM',
  0x200b: 'ZWSP',
  0x200c: 'ZWNJ',
  0x200d: 'ZWJ',
  0x200e: 'LRM',
  0x200f: 'RLM',
  0x202a: 'LRE',
  0x202b: 'RLE',
  0x202c: 'PDF',
  0x202d: 'LRO',
  0x202e: 'RLO',
  0x2060: 'WJ',
  0x2066: 'LRI',
  0x2067: 'RLI',
  0x2068: 'FSI',
  0x2069: 'PDI',
  0xfeff: 'BOM',
  0x00ad: 'SHY',
}

/** One piece of agent text: plain text, or an invisible character to show as a mark. */
export type AgentTextSegment = { text: string } | { invisible: string; code: string; name: string }

/** `U+202E` for a code point. */
const codeOf = (char: string) =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/**
 * Splits text into plain runs and the invisible characters between them, so each can be shown as
 * a visible mark instead of acting on the text around it.
 */
export function agentTextSegments(text: string): AgentTextSegment[] {
  const out: AgentTextSegment[] = []
  let last = 0
  for (const match of text.matchAll(INVISIBLE)) {
    const at = match.index
    if (at > last) out.push({ text: text.slice(last, at) })
    const char = match[0]
    const code = codeOf(char)
    out.push({ invisible: char, code, name: NAMES[char.codePointAt(0)!] ?? code })
    last = at + char.length
  }
  if (last < text.length) out.push({ text: text.slice(last) })
  return out
}

/** Whether text holds a character `AgentText` shows as a mark. */
export const hasInvisible = (text: string) => text.search(INVISIBLE) !== -1

const markStyle: CSSProperties = {
  display: 'inline-block',
  padding: '0 0.2em',
  margin: '0 0.1em',
  border: '1px dashed currentColor',
  borderRadius: '0.2em',
  fontFamily: 'ui-monospace, monospace',
  fontSize: '0.8em',
  lineHeight: 1.2,
}

/**
 * Text an agent wrote (a summary, a value, a label), shown so it cannot reorder what a person
 * reads: its direction is isolated from the text around it (`<bdi>`, first strong character
 * decides), and every bidirectional control, zero-width or other invisible character is shown as
 * a visible mark (`⟦RLO⟧`) instead of acting on the text. The mark's title names the code point.
 *
 * @example
 * <AgentText text={entry.summary} />
 */
export function AgentText({
  text,
  dir,
}: {
  text: string
  /** The direction to isolate the text in. Default: that of its first strong character. */
  dir?: 'ltr' | 'rtl'
}) {
  if (!hasInvisible(text)) {
    return (
      <bdi data-part="agent-text" dir={dir}>
        {text}
      </bdi>
    )
  }
  return (
    <bdi data-part="agent-text" dir={dir}>
      {agentTextSegments(text).map((segment, i) =>
        'text' in segment ? (
          segment.text
        ) : (
          <span
            key={i}
            data-part="invisible"
            title={`Hidden character ${segment.code}`}
            style={markStyle}
          >
            {`⟦${segment.name}⟧`}
          </span>
        ),
      )}
    </bdi>
  )
}
