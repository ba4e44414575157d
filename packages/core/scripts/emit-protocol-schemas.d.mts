/** Writes each protocol JSON Schema to `outDir` and returns the written file paths, sorted. */
export function emitProtocolSchemas(
  schemas: {
    messageSchemas: Record<string, object>
    directionSchemas: { toPage: object; toAgent: object }
  },
  outDir: string,
): Promise<string[]>
