/**
 * Every ```sh example of README.md and of the pages of docs/ runs as written, in the order the README and the pages
 * give them (see `examples.ts` for how each is run).
 */
import { describe, expect, it } from 'vitest';
import { readmeExamples, runExample } from './examples.js';

describe('every example of the README and of docs/ runs as written', () => {
  const examples = readmeExamples();

  it('there are examples in the README and in docs/', () => {
    expect(examples.filter((e) => e.where === 'README.md').length).toBeGreaterThan(10);
    expect(examples.filter((e) => e.where.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  it.each(examples.map((example) => [`${example.where}: ${example.lines.join(' ⏎ ')}`, example] as const))('%s', async (_name, example) => {
    const { ok, detail } = await runExample(example);
    expect(ok, detail).toBe(true);
  }, 150_000);
});
