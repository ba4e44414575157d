/**
 * Characters a model reads and a person reviewing the text does not see: format characters
 * (Unicode category Cf — zero-width spaces and joiners, bidirectional controls, tag characters,
 * the soft hyphen, the byte order mark), control characters other than tab and line breaks,
 * variation selectors 17–256 (which can carry bytes) and the Hangul fillers that render blank.
 */
const HIDDEN =
  // U+1160 and the variation selectors combine with what precedes them: apart from the class.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point.
  /[\p{Cf}\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u115f\u3164\uffa0]|\u1160|[\u{e0100}-\u{e01ef}]/gu

/** `U+200B` for each distinct hidden character of a text, in order of appearance. */
export function hiddenCharacters(text: string): string[] {
  const found = new Set<string>()
  for (const [char] of text.matchAll(HIDDEN)) {
    found.add(`U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
  }
  return [...found]
}

/**
 * Text that addresses the model instead of describing a tool: orders to drop its instructions,
 * talk of its system prompt, orders to keep something from the person, markup that imitates a
 * chat's roles, and claims to be the tool to use before or instead of the others. A heuristic:
 * each pattern is a phrase tool descriptions have no reason to contain.
 */
const INSTRUCTIONS: readonly RegExp[] = [
  /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+|my\s+)?(previous|prior|earlier|above|preceding|other|original|system)\s+(instructions?|prompts?|rules|directions|guidelines|messages)\b/,
  /\b(ignore|disregard|forget)\s+(all|any|your|the)\s+(instructions?|prompts?|rules|guidelines)\b/,
  /\b(system|developer)\s+(prompt|message|instructions?)\b/,
  /\byou\s+(are|must)\s+now\b/,
  /\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show)\s+(this\s+|it\s+|anything\s+)?(to\s+)?(the\s+)?(user|person|human)\b(?!'s)/,
  /<\s*\/?\s*(important|system|instructions?)\s*>|<\|im_(start|end)\|>|\[\/?inst\]/,
  /\balways\s+(call|use|run|invoke)\s+this\s+tool\b|\b(instead\s+of|before\s+(calling|using))\s+any\s+other\s+tools?\b/,
]

/** The phrase of a text that reads like instructions to the model, or undefined. */
export function instructionsToModel(text: string): string | undefined {
  // Hidden characters are dropped first, so "ig\u200bnore previous instructions" still matches.
  const plain = text
    .replace(HIDDEN, '')
    .replace(/[\u2018\u2019]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, ' ')
  for (const pattern of INSTRUCTIONS) {
    const match = pattern.exec(plain)
    if (match) return match[0]
  }
  return undefined
}
