import { onExit } from 'signal-exit';

/**
 * The process groups still running, killed when this process ends however it ends: a normal exit,
 * an uncaught exception, or a signal nobody else handles (a test runner tearing a worker down).
 *
 * execa's own `cleanup` option does this only for children that are not detached and only for
 * the child itself, while we start every child as the leader of its own process group (so that
 * stopping `pnpm ...` or `next start` reaches what they started). signal-exit, which execa uses
 * for that option, calls us on a signal only when no one else listens for it: a script that stops
 * its children gracefully on Ctrl-C (scripts/run-stack.mjs) keeps doing so, and we only sweep up
 * at its final exit.
 */
const groups = new Set<number>();
let isHooked = false;

/** SIGKILL/SIGTERM to a whole process group; a group that is gone already is not an error. */
export const signalGroup = (pid: number, signal: NodeJS.Signals): boolean => {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
};

export const trackGroup = (pid: number): void => {
  groups.add(pid);
  if (!isHooked) {
    isHooked = true;
    onExit(() => {
      for (const group of groups) {
        signalGroup(group, 'SIGKILL');
      }
    });
  }
};

export const untrackGroup = (pid: number): void => {
  groups.delete(pid);
};
