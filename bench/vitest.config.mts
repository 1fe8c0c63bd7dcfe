import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // The smoke run starts three servers (the API, the floor, the NestJS peer) and loads 20
    // scenarios: on a shared 2-core machine under load it has taken over three minutes.
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
