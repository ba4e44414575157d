const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/

/**
 * Whether a URL's protocol may carry a file: `https:`, or `http:` to a loopback host. Both what
 * `files.allowOrigins` may name (the registry's options) and what a form's file field fetches.
 */
export const isFileProtocol = (url: URL): boolean =>
  url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname))
