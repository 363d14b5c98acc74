/**
 * The layering of the source, checked on its imports (static `import`/`export … from` and dynamic `import()`), so that
 * a change that reaches into the wrong room fails here rather than in the next person's head:
 * - a command never imports another command's folder; what several commands do lives in src/services/;
 * - the CLI side reaches the sandbox only through its front door, src/sandbox/index.ts;
 * - the sandbox imports nothing of the CLI side: only the contract (src/contract/) and the shared leaves (src/shared/),
 *   which themselves import nothing else;
 * - io/ and state/ do not import each other;
 * - inside the sandbox, corpus/ never imports search/, and the HTTP layer (http/, routes/) knows no SQLite and takes
 *   the state and the index through their interfaces (type imports only).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../src');

/** One import: the importing file and what it imports, both relative to src/ (`commands/search/run.ts`), or a package. */
interface Edge {
  from: string;
  to: string;
  /** `import type` / `export type` (erased at run time). */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split(path.sep).join('/'));
}

/** Every import of every file under src/, relative specifiers resolved to src-relative `.ts` paths. */
function edges(): Edge[] {
  const found: Edge[] = [];
  for (const file of sourceFiles(src)) {
    const text = fs.readFileSync(path.join(src, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const pattern = /\b(import|export)\s+(type\s+)?[^;'"]*?\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g;
    for (const match of text.matchAll(pattern)) {
      const specifier = match[3] ?? match[4] ?? match[5]!;
      const to = specifier.startsWith('.')
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts')
        : specifier;
      found.push({ from: file, to, typeOnly: match[2] !== undefined });
    }
  }
  return found;
}

const all = edges();
const show = (list: Edge[]): string[] => list.map((e) => `${e.from} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`);
const folderOf = (file: string, depth: number): string => file.split('/').slice(0, depth).join('/');

describe('the layering of src/', () => {
  it('reads the imports of the whole tree', () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all.some((e) => e.from === 'cli.ts' && e.to.startsWith('commands/'))).toBe(true);
  });

  it("no command imports another command's folder", () => {
    const crossing = all.filter(
      (e) => /^commands\/[^/]+\//.test(e.from) && /^commands\/[^/]+\//.test(e.to) && folderOf(e.from, 2) !== folderOf(e.to, 2),
    );
    expect(show(crossing)).toEqual([]);
  });

  it('services never import commands', () => {
    expect(show(all.filter((e) => e.from.startsWith('services/') && e.to.startsWith('commands/')))).toEqual([]);
  });

  it('the CLI side imports the sandbox only through src/sandbox/index.ts', () => {
    const reaching = all.filter((e) => !e.from.startsWith('sandbox/') && e.to.startsWith('sandbox/') && e.to !== 'sandbox/index.ts');
    expect(show(reaching)).toEqual([]);
  });

  it('the sandbox imports only itself, the contract and the shared leaves', () => {
    const outside = all.filter((e) => e.from.startsWith('sandbox/') && e.to.endsWith('.ts') && !/^(sandbox|contract|shared)\//.test(e.to));
    expect(show(outside)).toEqual([]);
  });

  it('the contract and the shared leaves import nothing of either side', () => {
    const upward = all.filter((e) => /^(contract|shared)\//.test(e.from) && e.to.endsWith('.ts') && !/^(contract|shared)\//.test(e.to));
    expect(show(upward)).toEqual([]);
  });

  it('io/ and state/ do not import each other', () => {
    const tangled = all.filter((e) => (e.from.startsWith('io/') && e.to.startsWith('state/')) || (e.from.startsWith('state/') && e.to.startsWith('io/')));
    expect(show(tangled)).toEqual([]);
  });

  it("the sandbox's corpus/ never imports its search/", () => {
    expect(show(all.filter((e) => e.from.startsWith('sandbox/corpus/') && e.to.startsWith('sandbox/search/')))).toEqual([]);
  });

  it('the HTTP layer knows no SQLite and takes the state and the index by their interfaces', () => {
    const http = all.filter((e) => /^sandbox\/(http|routes)\//.test(e.from));
    expect(show(http.filter((e) => e.to === 'node:sqlite'))).toEqual([]);
    expect(show(http.filter((e) => /^sandbox\/(state|corpus)\//.test(e.to) && !e.typeOnly))).toEqual([]);
  });
});
