import { tsdocToMarkdown } from '../.storybook/tsdoc'

describe('the docs pages read TSDoc as Markdown', () => {
  it('turns @example into a heading and keeps the code block after it', () => {
    const doc = 'Asks a person.\n\n@example\n```tsx\n<ConfirmDialog />\n```'
    expect(tsdocToMarkdown(doc)).toBe(
      'Asks a person.\n\n**Example**\n\n```tsx\n<ConfirmDialog />\n```',
    )
  })

  it('keeps the title of a titled @example', () => {
    expect(tsdocToMarkdown('@example Two buttons\n```tsx\nx\n```')).toBe(
      '**Example: Two buttons**\n\n```tsx\nx\n```',
    )
  })

  it('writes {@link} as code, or as its text', () => {
    expect(tsdocToMarkdown('See {@link ConfirmDialog} and {@link useTool | the hook}.')).toBe(
      'See `ConfirmDialog` and the hook.',
    )
  })

  it('leaves no tag behind in the real TSDoc of a component', async () => {
    const source = await import('../src/confirm-dialog/ConfirmDialog.tsx?raw').then(
      (m) => m.default as string,
    )
    const comment = /\/\*\*\n([\s\S]*?)\*\/\nexport const ConfirmDialog/.exec(source)![1]
    const description = comment.replace(/^ \* ?/gm, '').trim()
    expect(description).toContain('@example')
    expect(tsdocToMarkdown(description)).not.toMatch(/@\w+/)
  })

  it('passes an empty description through', () => {
    expect(tsdocToMarkdown(undefined)).toBeUndefined()
    expect(tsdocToMarkdown('')).toBe('')
  })
})
