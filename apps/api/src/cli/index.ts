import { runCli } from './run';

// Entry of `pnpm keys`, `pnpm db:migrate` and `pnpm db:seed`. The root scripts build the packages
// the API imports (turbo, cached) and run this file from source with tsx, which compiles in memory:
// nothing is written under dist/. The production image runs the compiled dist/cli/index.js.
const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  env: process.env,
  readStdin: async () => {
    let text = '';
    process.stdin.setEncoding('utf8');
    for await (const chunk of process.stdin) {
      text += chunk;
    }
    return text;
  },
  isStdinTty: process.stdin.isTTY === true,
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    // Everything is closed by now; should a stray handle keep the process alive, do not hang.
    setTimeout(() => process.exit(code), 5_000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`error: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
