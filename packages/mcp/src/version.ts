import pkg from '../package.json'

/** The package version, printed by `--version` and sent as the MCP server version. */
export const VERSION: string = pkg.version
