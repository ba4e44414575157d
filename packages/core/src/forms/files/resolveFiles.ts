import { refuse } from '../../base/results'
import type { FilesOptions, ToolResult } from '../../types'
import { fetchFile, type FileRejection } from './fetchFile'
import { rememberFilePreview } from './filePreviews'
import {
  DEFAULT_FILE_MAX_BYTES,
  DEFAULT_FILE_TIMEOUT_MS,
  DEFAULT_MAX_FILES,
  accepts,
  acceptList,
  formatBytes,
  sanitizeFileName,
} from './fileRules'
import { isBlob, type FileFieldRules, type FileSpec } from '../values/fileValues'

/** The files a fill asks for at one file field. */
export interface FileRequest {
  readonly path: string
  readonly rules: FileFieldRules
  readonly specs: readonly FileSpec[]
  /** The agent sent a list (for a field that takes one file, that breaks `multiple`). */
  readonly list: boolean
}

class Rejected {
  constructor(
    readonly path: string,
    readonly rejection: FileRejection,
  ) {}
}

/** The refusal a rejected file gets: the field and the rule in the message, nothing written. */
export function fileRejected(path: string, { rule, detail }: FileRejection): ToolResult<never> {
  return refuse('file_rejected', `File field "${path}" rejected (${rule}): ${detail}`)
}

/** What a fill is told when file values are given but the app takes none of that kind. */
export function fileMeans(files: Readonly<FilesOptions> | undefined) {
  return {
    ref: typeof files?.resolve === 'function',
    url: (files?.allowOrigins?.length ?? 0) > 0,
  }
}

/**
 * Resolves every file of a fill before anything is written: counts first, then every `{ ref }`
 * through the app and every `{ url }` through the hardened fetch, all at once under one
 * deadline. The first failure cancels the rest and ends the fill `refused file_rejected`.
 * An abort of `signal` (the call's) is thrown as its reason.
 */
export async function resolveFiles(
  files: Readonly<FilesOptions> | undefined,
  requests: readonly FileRequest[],
  signal: AbortSignal,
): Promise<{ ok: true; files: Map<string, File[]> } | { ok: false; result: ToolResult<never> }> {
  const means = fileMeans(files)
  for (const request of requests) {
    const { path, rules, specs } = request
    if (!rules.multiple && (request.list || specs.length > 1)) {
      return {
        ok: false,
        result: fileRejected(path, { rule: 'multiple', detail: 'the field takes one file' }),
      }
    }
    const maxFiles = rules.multiple ? (rules.maxFiles ?? DEFAULT_MAX_FILES) : 1
    if (specs.length > maxFiles) {
      const detail = `${specs.length} files given; at most ${maxFiles}`
      return { ok: false, result: fileRejected(path, { rule: 'maxFiles', detail }) }
    }
    for (const spec of specs) {
      if ('ref' in spec && !means.ref) {
        const detail = 'this app takes no { ref } files' + (means.url ? '; send { url }' : '')
        return { ok: false, result: fileRejected(path, { rule: 'ref', detail }) }
      }
      if ('url' in spec && !means.url) {
        const detail = 'this app fetches no { url } files' + (means.ref ? '; send { ref }' : '')
        return { ok: false, result: fileRejected(path, { rule: 'url', detail }) }
      }
    }
  }

  const controller = new AbortController()
  const timeoutMs = files?.timeoutMs ?? DEFAULT_FILE_TIMEOUT_MS
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort(new Error('timeout'))
  }, timeoutMs)
  const onAbort = () => controller.abort(signal.reason)
  if (signal.aborted) onAbort()
  else signal.addEventListener('abort', onAbort, { once: true })

  const resolveOne = async (request: FileRequest, spec: FileSpec): Promise<File> => {
    const { path, rules } = request
    const accept = acceptList(rules.accept)
    const maxBytes = Math.min(rules.maxBytes ?? Infinity, files?.maxBytes ?? DEFAULT_FILE_MAX_BYTES)
    const fail = (rule: string, detail: string): never => {
      throw new Rejected(path, { rule, detail })
    }
    let blob: unknown
    if ('url' in spec) {
      let fetched
      try {
        fetched = await fetchFile(spec.url, {
          allowOrigins: files?.allowOrigins ?? [],
          accept,
          maxBytes,
          signal: controller.signal,
        })
      } catch {
        if (controller.signal.aborted) throw controller.signal.reason
        return fail('unavailable', 'the file could not be fetched')
      }
      if (!fetched.ok) throw new Rejected(path, fetched.rejection)
      blob = fetched.file
    } else {
      try {
        blob = await files!.resolve!(spec.ref, { signal: controller.signal })
      } catch {
        if (controller.signal.aborted) throw controller.signal.reason
        return fail('ref', `the app could not resolve ${JSON.stringify(spec.ref)}`)
      }
      if (controller.signal.aborted) throw controller.signal.reason
      if (!isBlob(blob)) return fail('ref', `the app has no file ${JSON.stringify(spec.ref)}`)
    }
    const file = blob as Blob
    const given = (file as { name?: unknown }).name
    const name = sanitizeFileName(typeof given === 'string' ? given : '')
    if (file.size > maxBytes) {
      return fail(
        'maxBytes',
        `the file is ${formatBytes(file.size)}; at most ${formatBytes(maxBytes)}`,
      )
    }
    if (!accepts(accept, name, file.type)) {
      return fail('accept', `${file.type || 'an unknown type'} (${name}) is not accepted`)
    }
    const lastModified = (file as { lastModified?: unknown }).lastModified
    const out =
      file instanceof File && file.name === name
        ? file
        : new File([file], name, {
            type: file.type,
            ...(typeof lastModified === 'number' ? { lastModified } : {}),
          })
    if ('ref' in spec) rememberFilePreview(out)
    return out
  }

  try {
    const resolved = await Promise.all(
      requests.map((request) => Promise.all(request.specs.map((s) => resolveOne(request, s)))),
    )
    return { ok: true, files: new Map(requests.map((r, i) => [r.path, resolved[i]])) }
  } catch (error) {
    if (signal.aborted) throw signal.reason
    if (error instanceof Rejected) {
      return { ok: false, result: fileRejected(error.path, error.rejection) }
    }
    if (timedOut) {
      const path = requests[0]?.path ?? ''
      const detail = `the files took longer than ${timeoutMs} ms`
      return { ok: false, result: fileRejected(path, { rule: 'timeout', detail }) }
    }
    throw error
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
    // The first failure stops every other download.
    controller.abort()
  }
}
