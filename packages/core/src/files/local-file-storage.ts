import { mkdir, open, rm } from 'node:fs/promises'
import { resolve, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FileStorage } from '../ports.js'

/** Keys are generated plain file names: no separators, no dot files. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/

function checkedKey (key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Invalid file storage key "${key}".`)
  return key
}

/**
 * Files in one local directory (created on first write), each under its key.
 * Suits a single instance; several instances need shared (object) storage.
 */
export function createLocalFileStorage (directory: string): FileStorage {
  const root = resolve(directory)
  const pathOf = (key: string): string => join(root, checkedKey(key))
  return {
    async write (content: Readable, name: string) {
      const path = pathOf(name)
      await mkdir(root, { recursive: true })
      // `wx`: a key is never reused, so an existing file (EEXIST) is a clash, never ours to overwrite or remove.
      // Opened before streaming: a write stream opening its own file can still be creating it after a failed
      // pipeline has settled, and the file would appear after its removal (seen with a busy libuv thread pool).
      const handle = await open(path, 'wx').catch((error: unknown) => {
        content.destroy()
        throw error
      })
      const file = handle.createWriteStream()
      try {
        await pipeline(content, file)
      } catch (error) {
        // A partial file goes, once its stream has closed the handle.
        if (!file.closed) await new Promise<void>((resolve) => { file.once('close', () => { resolve() }) })
        await rm(path, { force: true })
        throw error
      }
      return { key: name, size: file.bytesWritten }
    },
    async read (key: string) {
      let handle
      try {
        handle = await open(pathOf(key), 'r')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
      return handle.createReadStream()
    },
    async delete (key: string) {
      await rm(pathOf(key), { force: true })
    }
  }
}
