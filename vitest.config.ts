import os from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The end-to-end files first, the examples before the rest: they are the longest (mostly waiting on the processes they
 * start), so starting them first keeps them off the end of the run. Otherwise vitest's order (failed first, then the
 * longest known, then the largest file).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => (/\/e2e\/examples-/.test(spec.moduleId) ? 0 : /\/e2e\//.test(spec.moduleId) ? 1 : 2);
    const sorted = await super.sort(files);
    return sorted.map((spec, index) => ({ spec, index })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index).map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests share one sandbox (index built once) started by the global setup.
    globalSetup: ['test/e2e/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Most test time is spent waiting on the processes the tests start (the CLI, sandboxes), not on the CPU: one file
    // more than the machine has CPUs keeps them busy (vitest's default is one fewer, a single file at a time on 2).
    maxWorkers: os.availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
  },
});
