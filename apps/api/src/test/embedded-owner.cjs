// Test fixture (see cli-process.ts): opens the embedded database of DATA_DIR with the compiled
// openDatabase() in the role given as first argument, prints "ready", and holds it until SIGTERM
// or for the number of milliseconds given as second argument; then closes it gracefully.
const { join } = require('node:path');

const dist = join(__dirname, '..', '..', 'dist');
const { loadConfig } = require(join(dist, 'config.js'));
const { openDatabase } = require('@pets/db');

const role = process.argv[2] === 'tool' ? 'tool' : 'server';
const holdMs = Number(process.argv[3] ?? 0);
const keepAlive = setInterval(() => undefined, 60_000);

openDatabase(loadConfig(), {
  role,
  onInfo: (message) => process.stderr.write(`${message}\n`),
}).then(
  (database) => {
    process.stdout.write('ready\n');
    let isClosing = false;
    const close = async () => {
      if (isClosing) {
        return;
      }
      isClosing = true;
      await database.close();
      clearInterval(keepAlive);
      process.stderr.write('closed\n');
    };
    process.on('SIGTERM', close);
    if (holdMs > 0) {
      setTimeout(close, holdMs);
    }
  },
  (error) => {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  },
);
