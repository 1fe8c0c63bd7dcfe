import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Several cases build the whole OpenAPI document: about a second alone, over 5 s on a machine
    // busy with the rest of CI (seen twice), which is no failure of the contract.
    testTimeout: 30_000,
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
