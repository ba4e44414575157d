import type { Preview } from '@storybook/react-vite'

const preview: Preview = {
  parameters: {
    controls: { expanded: true },
    layout: 'centered',
    options: {
      storySort: {
        order: ['Introduction', 'UseTool', 'ConfirmDialog', 'Forms', 'Query', 'Devtools', 'WebMCP'],
      },
    },
  },
  tags: ['autodocs'],
}
export default preview
