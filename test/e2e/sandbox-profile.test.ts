/**
 * A profile that runs against the sandbox without `--sandbox` (`pravo config set sandbox on`), and the one key of a
 * data directory that `--sandbox` runs take up again instead of minting one each.
 */
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { linkedDataDir, pravo, tempDir } from './helpers.js';

const sandbox = inject('sandbox');

interface KeyRecord {
  key_id: string;
  name: string;
  status: string;
  last_used_at: string | null;
}

describe('a profile whose API commands run against the sandbox', () => {
  const work = tempDir('sandbox-profile');
  afterAll(() => work.cleanup());
  const env = { PRAVO_CONFIG_DIR: path.join(work.dir, 'config'), PRAVO_SANDBOX_DATA_DIR: linkedDataDir(work.dir, sandbox.dataDir) };
  const keys = async (): Promise<KeyRecord[]> => (JSON.parse((await pravo(['keys', 'list', '--json'], { env })).stdout) as { keys: KeyRecord[] }).keys;

  it('searches without --sandbox once the setting is on, and goes back to the service when it is off', async () => {
    expect((await pravo(['config', 'set', 'sandbox-corpus', sandbox.corpus], { env })).exitCode).toBe(0);
    const before = await pravo(['search', '-n', '1', 'обществени поръчки обжалване'], { env });
    expect(before.exitCode).toBe(2);
    expect(before.stderr).toMatch(/No base URL is configured/);

    const on = await pravo(['config', 'set', 'sandbox', 'on'], { env });
    expect(on.exitCode).toBe(0);
    expect(on.stderr).toMatch(/in-process sandbox/);
    expect((await pravo(['config', 'show'], { env })).stdout).toMatch(/^Sandbox\s+on/m);
    const search = await pravo(['search', '-n', '1', 'обществени поръчки обжалване'], { env });
    expect(search.exitCode).toBe(0);
    expect(search.stdout.split('\t')[0]).toBe('1');

    // Another profile is not affected.
    const other = await pravo(['search', '--profile', 'live', '-n', '1', 'обществени поръчки обжалване'], { env });
    expect(other.exitCode).toBe(2);

    expect((await pravo(['config', 'set', 'sandbox', 'maybe'], { env })).exitCode).toBe(2);
    expect((await pravo(['config', 'set', 'sandbox', 'off'], { env })).exitCode).toBe(0);
    expect((await pravo(['search', '-n', '1', 'обществени поръчки обжалване'], { env })).exitCode).toBe(2);
    expect((await pravo(['config', 'set', 'sandbox', 'on'], { env })).exitCode).toBe(0);
  });

  it('keeps one key per data directory across runs, its last use recorded, and issues a new one once it is revoked', async () => {
    for (let i = 0; i < 2; i++) expect((await pravo(['search', '-n', '1', 'изборен кодекс гласуване'], { env })).exitCode).toBe(0);
    const listed = (await keys()).filter((k) => k.name === 'pravo --sandbox');
    expect(listed).toHaveLength(1);
    expect(listed[0]!.status).toBe('active');
    expect(listed[0]!.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    expect((await pravo(['keys', 'revoke', listed[0]!.key_id, '--yes'], { env })).exitCode).toBe(0);
    expect((await pravo(['search', '-n', '1', 'изборен кодекс гласуване'], { env })).exitCode).toBe(0);
    const after = (await keys()).filter((k) => k.name === 'pravo --sandbox');
    expect(after.map((k) => k.status).sort()).toEqual(['active', 'revoked']);
    expect(after.find((k) => k.status === 'active')!.key_id).not.toBe(listed[0]!.key_id);
    // Ten runs of the CLI, each opening the sandbox in process.
  }, 90_000);
});
