import { errorResult, reportError } from '@toolmark/core'
import type { ToolContext, Toolmark, ToolResult } from '@toolmark/core'

/**
 * What a query or mutation tool returns when the server failed: a generic `error` result for the
 * agent, and the details in an `error` event for the app.
 */
export function failure(
  tm: Toolmark,
  ctx: ToolContext,
  tool: string,
  failed: { code: string; what: string; message: string },
  cause: unknown,
): ToolResult<never> {
  reportError(tm, {
    code: failed.code,
    message: `The ${failed.what} of tool "${tool}" failed`,
    tool,
    callId: ctx.callId,
    cause,
  })
  return errorResult(failed.message)
}
