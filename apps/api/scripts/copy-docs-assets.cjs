// Part of `build`: copies the standalone browser bundle of the installed @scalar/api-reference into
// dist/assets, so the /docs page serves it from the API itself while the production image ships
// that one file instead of the package and its dependencies (about 100 MB).
const { copyFileSync, mkdirSync } = require('node:fs');
const { dirname, join } = require('node:path');

// The package's exports map names only its ESM entry (dist/index.js); the bundle sits beside it.
const bundle = join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
const target = join(__dirname, '..', 'dist', 'assets', 'scalar-standalone.js');
mkdirSync(dirname(target), { recursive: true });
copyFileSync(bundle, target);
