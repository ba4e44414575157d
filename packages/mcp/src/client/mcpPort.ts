/** Default port of `toolmark-mcp`'s pairing socket. */
export const DEFAULT_MCP_PORT = 17840

/** The only host the page connects to: `toolmark-mcp` binds the loopback address alone. */
const LOOPBACK_HOST = '127.0.0.1'

/**
 * The port a page may connect to: a whole number from 1 to 65535, given as a number or as a
 * string of digits only (no sign, space, `@`, `:` or `/`, so nothing can name another host);
 * `undefined` for anything else. No port given means the default.
 */
export function parseMcpPort(port: unknown): number | undefined {
  if (port === undefined) return DEFAULT_MCP_PORT
  const value =
    typeof port === 'number'
      ? port
      : typeof port === 'string' && /^[0-9]{1,5}$/.test(port)
        ? Number(port)
        : NaN
  return Number.isInteger(value) && value >= 1 && value <= 65_535 ? value : undefined
}

/** The pairing socket's URL, built from its parts: the loopback host and a checked port. */
export function pairingSocketUrl(port: number): string {
  return `ws://${LOOPBACK_HOST}:${port}`
}

/** What a bad port is called in a message: short, and never the whole of a long value. */
export function describePort(port: unknown): string {
  if (typeof port === 'string')
    return JSON.stringify(port.length > 40 ? `${port.slice(0, 40)}…` : port)
  if (typeof port === 'number') return String(port)
  return port === null ? 'null' : `a value of type ${typeof port}`
}
