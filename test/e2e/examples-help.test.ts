/** Every `$ pravo …` example of every command's `--help` runs as written (see `examples.ts` for how each is run). */
import { describe, expect, it } from 'vitest';
import { commands, helpExamples, runExample } from './examples.js';

describe('every example of the help runs as written', async () => {
  const examples = (await Promise.all((await commands()).map(helpExamples))).flat();

  it('there are examples in the help of the commands', () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  it.each(examples.map((example) => [`${example.where}: ${example.lines.join(' ⏎ ')}`, example] as const))('%s', async (_name, example) => {
    const { ok, detail } = await runExample(example);
    expect(ok, detail).toBe(true);
  }, 150_000);
});
