import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  framework: { name: '@storybook/react-vite', options: {} },
  stories: ['../stories/Introduction.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest', '@storybook/addon-a11y'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // The stories are the guide here: no onboarding checklist in the sidebar or the menu.
  features: { sidebarOnboardingChecklist: false, menuOnboardingChecklist: false },
  viteFinal(vite) {
    // The Storybook UI's stores wait one second for the dev server's answer when the page opens.
    // The first visit makes the server pre-bundle the preview's dependencies and run docgen over
    // every component, seconds of work on its one thread, so that answer came late on a busy
    // machine ("Timed out waiting for leader state for UniversalStore follower"). Both are done
    // when the server starts instead, before anyone opens the page.
    return {
      ...vite,
      optimizeDeps: {
        ...vite.optimizeDeps,
        include: [
          ...(vite.optimizeDeps?.include ?? []),
          'react',
          'react-dom',
          'react-dom/client',
          'react/jsx-runtime',
          'react/jsx-dev-runtime',
          'zod',
          'react-hook-form',
          '@hookform/resolvers/zod',
          '@tanstack/react-query',
          '@mcp-b/webmcp-polyfill',
        ],
      },
      server: {
        ...vite.server,
        warmup: {
          ...vite.server?.warmup,
          clientFiles: [
            ...(vite.server?.warmup?.clientFiles ?? []),
            './stories/*.stories.tsx',
            './src/**/*.tsx',
          ],
        },
      },
    }
  },
}
export default config
