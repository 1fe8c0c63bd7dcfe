import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Not dist/: the compiled copies of the tests would run twice.
    include: ['src/**/*.test.ts'],
  },
});
