import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../openapi';

/** `pnpm openapi`: regenerates the committed packages/contract/openapi.json from the contract. */
const target = join(__dirname, '..', '..', 'openapi.json');
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
