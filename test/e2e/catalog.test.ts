/**
 * `pravo catalog` and the catalog checks of `pravo search` end to end: the built CLI against the sandbox over
 * `../shared/corpus` (started by the global setup). The courts and judges catalogs end to end are in caselaw.test.ts;
 * their output forms in-process in test/commands/catalog.test.ts.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { pravo, tempDir } from './helpers.js';

const sandbox = inject('sandbox');

describe('pravo catalog source-types against the sandbox', () => {
  const config = tempDir('catalog-config');
  const env = (apiKey = sandbox.apiKey) => ({ PRAVO_CONFIG_DIR: config.dir, PRAVO_BASE_URL: sandbox.baseUrl, PRAVO_API_KEY: apiKey });
  afterAll(() => config.cleanup());

  it('piped: one line per source type (id, name, case_law, document_count); --json the body', async () => {
    const result = await pravo(['catalog', 'source-types', '--refresh'], { env: env() });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n').map((l) => l.split('\t'));
    expect(lines.map((l) => l[0])).toEqual(['bulgarian_laws_regulations', 'high_courts_cases']);
    expect(lines[0]!.slice(1, 3)).toEqual(['Закони и подзаконови нормативни актове', 'false']);
    expect(Number(lines[0]![3])).toBeGreaterThan(1000);
    expect(lines[1]![2]).toBe('true');
    const json = await pravo(['catalog', 'source-types', '--json'], { env: env() });
    expect(JSON.parse(json.stdout).source_types.map((t: { id: string }) => t.id)).toEqual(['bulgarian_laws_regulations', 'high_courts_cases']);
  });

  it('is answered from the cache: a rejected key does not matter until --refresh asks the server', async () => {
    await pravo(['catalog', 'source-types'], { env: env() });
    const cached = await pravo(['catalog', 'source-types'], { env: env('sbx_live_NOTAKEYnotakeyNOTAKEYnotakey') });
    expect(cached.exitCode).toBe(0);
    expect(cached.stdout).toContain('high_courts_cases');
    const refreshed = await pravo(['catalog', 'source-types', '--refresh'], { env: env('sbx_live_NOTAKEYnotakeyNOTAKEYnotakey') });
    expect(refreshed.exitCode).toBe(4);
  });

  it('pravo search --type with a typo: did you mean, exit 2', async () => {
    const result = await pravo(['search', '--type', 'high_court_cases', 'трудов договор'], { env: env() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('did you mean high_courts_cases?');
  });
});
