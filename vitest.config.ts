import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests share one sandbox (index built once) started by the global setup.
    globalSetup: ['test/e2e/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
