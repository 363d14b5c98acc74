/**
 * Sizes in words, for messages of both sides: a response cap of the API client, an input cap of the sandbox. A leaf
 * module: it imports nothing.
 */

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/** `1073741824` → `1 GiB`, `33554432` → `32 MiB`, `65536` → `64 KiB`, else `N bytes`: the largest whole unit. */
export function formatBytes(bytes: number): string {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes / GiB} GiB`;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}
