import { describeFile, type FileDescription } from '../values/fileValues'

/** Images kept for previews at most; the oldest goes first. */
const MAX_PREVIEWS = 32

/** Images that came from a `{ ref }` (a file the person gave the app), by their description. */
const previews = new Map<string, Blob>()

const keyOf = ({ file }: FileDescription) => `${file.name}\n${file.size}\n${file.type}`

/**
 * Keeps an image a fill resolved from a `{ ref }`, so a confirmation can preview it: the person
 * gave the app that file, so showing it back leaks nothing. Fetched `{ url }` files are never kept.
 */
export function rememberFilePreview(file: Blob): void {
  if (!file.type.toLowerCase().startsWith('image/')) return
  const key = keyOf(describeFile(file))
  previews.delete(key)
  previews.set(key, file)
  if (previews.size > MAX_PREVIEWS) previews.delete(previews.keys().next().value!)
}

/**
 * The image behind a file description, when a fill resolved it from a `{ ref }` on this page;
 * `undefined` otherwise. For previews in a confirmation (`<ConfirmDialog>` shows them).
 */
export function filePreview(description: unknown): Blob | undefined {
  if (!isFileDescription(description)) return undefined
  return previews.get(keyOf(description))
}

/** Whether a value is a file's description: `{ file: { name, size, type } }`. */
export function isFileDescription(value: unknown): value is FileDescription {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const keys = Object.keys(value)
  const file = (value as { file?: unknown }).file as Record<string, unknown> | undefined
  return (
    keys.length === 1 &&
    keys[0] === 'file' &&
    file !== null &&
    typeof file === 'object' &&
    typeof file.name === 'string' &&
    typeof file.size === 'number' &&
    typeof file.type === 'string'
  )
}
