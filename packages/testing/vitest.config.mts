import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // These cases start processes: node alone took over 5 s to start on a busy CI machine.
    testTimeout: 20_000,
  },
});
