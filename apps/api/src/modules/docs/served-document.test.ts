import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@pets/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApi, type TTestApi } from '../../test/api-harness';

/**
 * The document the API serves, not only the committed one, passes the contract's
 * Spectral ruleset (spectral:oas and every OWASP rule, packages/contract/.spectral.yaml): the
 * served copy's relative first server had failed owasp:api9:2023-inventory-environment while CI
 * linted only the committed file. Its first server is this API's absolute public address, naming
 * its environment, and every path parameter carries its example on the parameter (Dredd).
 */

const CONTRACT_DIR = join(__dirname, '..', '..', '..', '..', '..', 'packages', 'contract');
const SPECTRAL = join(CONTRACT_DIR, 'node_modules', '.bin', 'spectral');

const started: TTestApi[] = [];
afterAll(async () => {
  await Promise.all(started.map((api) => api.close()));
});

type TDocument = {
  servers: { url: string; description: string }[];
  paths: Record<string, Record<string, { parameters?: Record<string, unknown>[] }>>;
};

const servedDocument = async (env: Record<string, string>) => {
  const api = await startTestApi({ env });
  started.push(api);
  const response = await api.fetch('/v1/openapi.json', { key: null });
  expect(response.status).toBe(200);
  return { text: await response.text(), api };
};

describe('the served OpenAPI document', () => {
  it('passes Spectral with the contract ruleset (every OWASP rule)', {
    timeout: 120_000,
  }, async () => {
    const { text } = await servedDocument({});
    const dir = await mkdtemp(join(tmpdir(), 'pets-served-openapi-'));
    try {
      const file = join(dir, 'served-openapi.json');
      await writeFile(file, text);
      const lint = await runProcess({
        name: 'spectral',
        command: SPECTRAL,
        args: [
          'lint',
          file,
          '--ruleset',
          join(CONTRACT_DIR, '.spectral.yaml'),
          '--fail-severity',
          'error',
          '--display-only-failures',
        ],
        cwd: CONTRACT_DIR,
        timeoutMs: 110_000,
      });
      expect(lint.code, `${lint.stdout}\n${lint.stderr}`).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['production', 'https://api.example.test/v1'],
    ['staging', 'https://staging.example.test/v1'],
  ])('names its environment (%s) and its absolute address first', async (environment, url) => {
    const { text } = await servedDocument({
      APP_ENV: environment,
      PUBLIC_BASE_URL_PRODUCTION: 'https://api.example.test/v1',
      PUBLIC_BASE_URL_STAGING: 'https://staging.example.test/v1',
    });
    const document = JSON.parse(text) as TDocument;
    expect(document.servers[0]).toEqual({
      url,
      description: `This server (${environment})`,
      'x-internal': false,
    });
    expect(
      document.servers.map((server) => server.url).filter((each) => each === url),
    ).toHaveLength(1);
  });

  it('gives every path parameter an example of its own', async () => {
    const { text } = await servedDocument({});
    const document = JSON.parse(text) as TDocument;
    const missing = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path' && parameter.example === undefined)
          .map((parameter) => `${method} ${path} ${String(parameter.name)}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
