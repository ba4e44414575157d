import type { Preview } from '@storybook/react-vite'
import { tsdocToMarkdown } from './tsdoc.ts'

/** Every `console.error` (and uncaught error) while the current story renders and plays. */
let consoleErrors: string[] = []

const preview: Preview = {
  parameters: {
    controls: { expanded: true },
    layout: 'centered',
    // Every story is checked with axe after its play function; a violation fails its test.
    a11y: { test: 'error' },
    docs: {
      // The components' TSDoc is written for editors (`@example`, `{@link …}`): the docs pages
      // show it as Markdown instead of the raw tags.
      extractComponentDescription: (component: unknown) =>
        tsdocToMarkdown(
          (component as { __docgenInfo?: { description?: string } } | undefined)?.__docgenInfo
            ?.description,
        ),
    },
    options: {
      storySort: {
        order: [
          'Introduction',
          'UseTool',
          'ToolScope',
          'ConfirmDialog',
          'Forms',
          'Query',
          'Devtools',
          'WebMCP',
          'McpPairing',
        ],
      },
    },
  },
  tags: ['autodocs'],
  // A story that logs an error fails, in the test run and in the Interactions panel alike: a
  // clean console is part of what every story shows.
  beforeEach() {
    consoleErrors = []
    const original = console.error
    console.error = (...args: unknown[]) => {
      consoleErrors.push(args.map(String).join(' '))
      original(...args)
    }
    const onError = (event: ErrorEvent) => consoleErrors.push(`Uncaught ${event.message}`)
    const onRejection = (event: PromiseRejectionEvent) =>
      consoleErrors.push(`Unhandled rejection ${String(event.reason)}`)
    window.addEventListener('error', onError)
    window.addEventListener('unhandledrejection', onRejection)
    return () => {
      console.error = original
      window.removeEventListener('error', onError)
      window.removeEventListener('unhandledrejection', onRejection)
    }
  },
  afterEach() {
    if (consoleErrors.length > 0) {
      throw new Error(`The story logged errors:\n${consoleErrors.join('\n')}`)
    }
  },
}
export default preview
