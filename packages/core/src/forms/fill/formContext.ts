import type {
  FieldChange,
  JsonSchema,
  ResultIssue,
  StandardSchemaV1,
  ToolHandle,
  Toolmark,
} from '../../types'
import type { FileFieldsCode } from '../files/fileFields'
import { describeFiles, type FileFieldRules } from '../values/fileValues'
import type { EditTracker } from './formMemory'
import type { InternalProvenance } from './formProvenance'
import type { FormNode } from '../values/formSchema'
import { isNoValue } from '../values/paths'
import type { FormSecrets } from './sensitiveFields'
import type { FormAdapter, FormField } from '../values/types'

/**
 * What every tool of one form shares. For a wizard, `adapter`, `schema` and every path are the
 * tools' view of it: one object keyed by step id (`who.email`).
 */
export interface FormContext {
  readonly tm: Toolmark
  readonly name: string
  readonly title: string | undefined
  readonly adapter: FormAdapter<unknown>
  /** Validates the tools' view of the form. */
  readonly schema: StandardSchemaV1
  readonly jsonSchema: JsonSchema
  readonly root: FormNode
  readonly edits: EditTracker
  /** Which fields hold the agent's values, from which call. */
  readonly provenance: InternalProvenance
  readonly secrets: FormSecrets
  /** The wizard's steps, in order; absent for a plain form. */
  readonly steps: ReadonlyArray<{ readonly id: string; readonly title?: string }> | undefined
  /** The rules of the form's file fields, by the tools' paths (none without `fileFields()`). */
  readonly files: ReadonlyMap<string, FileFieldRules>
  /** The code `fileFields()` brought to check and resolve them; absent without file fields. */
  readonly fileCode: FileFieldsCode | undefined
  /** The registered tools, for error events. */
  readonly handles: Partial<Record<string, ToolHandle>>
  readFields(): FormField[]
  /** Moves a wizard's visible step after the form changed: the step of the first issue, else the last. */
  followIssues(issues: readonly ResultIssue[]): void
}

export const byPath = <T extends { path: string }>(a: T, b: T) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0

/** A `FieldChange` with "no value" sides left out; files shown by name, size and type. */
export function fieldChange(path: string, rawBefore: unknown, rawAfter: unknown): FieldChange {
  const before = describeFiles(rawBefore)
  const after = describeFiles(rawAfter)
  const change: FieldChange = { path }
  if (!isNoValue(before)) change.before = before
  if (!isNoValue(after)) change.after = after
  return change
}
