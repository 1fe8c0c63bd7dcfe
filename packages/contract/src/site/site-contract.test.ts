import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, operationNames } from '../openapi';
import { siteAccessOf } from '../routers/metadata';
import { SITE_CONTRACT_ROUTES, SITE_PATH_PREFIX } from './index';

/**
 * The site-only contract is the store's own: no path or operation of it may reach the public
 * OpenAPI document (generated or committed), and every operation says who at the site may call it.
 */
describe('siteContract', () => {
  const committed = readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8');
  // Built while the file is collected, as openapi.test.ts does: on a machine busy with the rest of
  // CI the build outlasts a test's 5 s (CI saw it).
  const generated = buildOpenApiDocument();

  it('appears in neither the generated nor the committed OpenAPI document', () => {
    const paths = Object.keys(generated.paths);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => path.startsWith(SITE_PATH_PREFIX))).toEqual([]);
    expect(committed).not.toContain(`"${SITE_PATH_PREFIX}/`);
    const names = new Set(operationNames());
    for (const { name } of SITE_CONTRACT_ROUTES) {
      expect(names.has(name), name).toBe(false);
    }
  });

  it('lives under /internal, and every operation declares its siteAccess', () => {
    expect(SITE_CONTRACT_ROUTES.length).toBeGreaterThan(10);
    for (const { name, route } of SITE_CONTRACT_ROUTES) {
      expect(route.path.startsWith(`${SITE_PATH_PREFIX}/`), name).toBe(true);
      expect(siteAccessOf(route), name).toBeDefined();
    }
  });
});
