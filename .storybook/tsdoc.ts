/**
 * Turns a component's TSDoc into the Markdown a docs page shows: block tags become headings
 * (`@example` → "Example"), inline `{@link Name}` becomes `Name` in code (or its text, with
 * `{@link Name | text}`). The comments stay
 * written for editors, where the tags mean something.
 */
export function tsdocToMarkdown(description: string | undefined): string | undefined {
  if (!description) return description
  return description
    .replace(/\{@link(?:code|plain)?\s+([^}|\s]+)\s*(?:\|\s*([^}]+))?\}/g, (_m, name, text) =>
      text ? text.trim() : `\`${name}\``,
    )
    .replace(/^@example\b[ \t]*(.*)$/gm, (_m, title: string) =>
      title.trim() ? `**Example: ${title.trim()}**\n` : '**Example**\n',
    )
    .replace(/^@(remarks|see|default|defaultValue|returns?)\b[ \t]*/gm, (_m, tag: string) =>
      tag === 'remarks' ? '' : `**${tag[0].toUpperCase()}${tag.slice(1)}:** `,
    )
}
