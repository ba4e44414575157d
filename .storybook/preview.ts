import type { Preview } from '@storybook/react-vite'

const preview: Preview = {
  parameters: { controls: { expanded: true }, layout: 'centered' },
  tags: ['autodocs'],
}
export default preview
