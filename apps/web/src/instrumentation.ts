/**
 * Runs once when a server starts. Next.js also compiles this file for the Edge runtime, so the
 * Node.js-only check lives in instrumentation-node.ts and is loaded only under Node.js.
 * (NEXT_RUNTIME is set by Next.js itself; it is not configuration.)
 */
export const register = async (): Promise<void> => {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('./instrumentation-node');
  }
};
