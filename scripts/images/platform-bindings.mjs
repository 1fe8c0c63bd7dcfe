// The native bindings a `pnpm deploy --no-optional` leaves out, put back (apps/api/Dockerfile).
//
//   node platform-bindings.mjs <full install's node_modules/.pnpm> <deployed node_modules/.pnpm>
//
// A package with a native part ships it as optional dependencies, one per platform, each with an
// `os` or `cpu` field (@node-rs/argon2-linux-x64-gnu for the passwords, @img/sharp-linux-x64 and
// its libvips for the photos): `--no-optional` drops them with the optional dependencies we do
// not want in the image (the Prisma CLI and TypeScript, optional dependencies of @prisma/client).
// For every package of the deployed copy, each optional dependency made for a platform that the
// full install of the same lockfile has (so this image's platform's) is copied in beside the
// package, where Node's resolution finds it. Nothing else is added.
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

const [fullStore, deployedStore] = process.argv.slice(2);
if (!fullStore || !deployedStore) {
  process.stderr.write('usage: node platform-bindings.mjs <full .pnpm> <deployed .pnpm>\n');
  process.exit(2);
}

const manifestOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** The packages a virtual store entry holds itself (real directories, not links to others). */
const packagesOf = (modules) =>
  readdirSync(modules).flatMap((name) => {
    const path = join(modules, name);
    if (name.startsWith('@')) {
      return readdirSync(path)
        .map((inner) => join(path, inner))
        .filter((inner) => !lstatSync(inner).isSymbolicLink());
    }
    return name === '.bin' || lstatSync(path).isSymbolicLink() ? [] : [path];
  });

/**
 * The full store's entry for a deployed one: the same name, else the same package and version
 * with other peers (the part after `_`), as the two installs may resolve optional peers apart.
 */
const sameEntryIn = (store, entry) => {
  if (existsSync(join(store, entry))) {
    return join(store, entry);
  }
  const [packageAndVersion] = entry.split('_');
  const other = readdirSync(store).find((each) => each.split('_')[0] === packageAndVersion);
  return join(store, other ?? entry);
};

const copied = [];
for (const entry of readdirSync(deployedStore)) {
  const modules = join(deployedStore, entry, 'node_modules');
  if (!existsSync(modules)) {
    continue;
  }
  for (const dir of packagesOf(modules)) {
    for (const name of Object.keys(manifestOf(dir).optionalDependencies ?? {})) {
      const target = join(modules, name);
      const source = join(sameEntryIn(fullStore, entry), 'node_modules', name);
      if (existsSync(target) || !existsSync(source)) {
        continue;
      }
      const real = realpathSync(source);
      const { os, cpu } = manifestOf(real);
      if (os === undefined && cpu === undefined) {
        continue;
      }
      cpSync(real, target, { recursive: true, dereference: true });
      copied.push(`${entry} -> ${name}`);
    }
  }
}
process.stdout.write(`[platform-bindings] ${copied.length ? copied.join('\n') : 'none'}\n`);
if (copied.length === 0) {
  // The API needs at least argon2's: none found means the layout changed, not "nothing to do".
  process.exit(1);
}
