import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, operationNames } from './openapi';

const committed = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
const document = buildOpenApiDocument();

type TOperation = {
  operationId: string;
  deprecated?: boolean;
  security?: unknown;
  responses: Record<string, { headers?: Record<string, unknown> }>;
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, TOperation>).map(([method, operation]) => ({
    path,
    method,
    operation,
  })),
);

describe('openapi.json', () => {
  it('is up to date with the contract (run `pnpm openapi` after changing it)', () => {
    expect(committed).toEqual(document);
  });

  it('describes the five operations under /v1 with their names as operationIds', () => {
    expect(
      operations
        .map(({ method, path, operation }) => `${operation.operationId} ${method} ${path}`)
        .sort(),
    ).toEqual([
      'createPet post /v1/pets',
      'getPet get /v1/pets/{petId}',
      'listCategories get /v1/categories',
      'listOrders get /v1/store/orders',
      'listPets get /v1/pets',
    ]);
    expect(operationNames().sort()).toEqual(
      operations.map(({ operation }) => operation.operationId).sort(),
    );
  });

  it('is version 1.0.0 with production and staging servers', () => {
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers?.map((server) => server.description)).toEqual([
      'Production',
      'Staging',
    ]);
    expect(document.servers?.every((server) => server.url.endsWith('/v1'))).toBe(true);
  });

  it('takes the server addresses from the caller', () => {
    const custom = buildOpenApiDocument({
      productionUrl: 'https://api.example.org/v1',
      stagingUrl: 'https://staging.example.org/v1',
    });
    expect(custom.servers?.map((server) => server.url)).toEqual([
      'https://api.example.org/v1',
      'https://staging.example.org/v1',
    ]);
  });

  it('requires the bearer key on every operation', () => {
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const { operation } of operations) {
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
  });

  it('lists 401 and 429 on every operation, with the rate-limit headers on every response', () => {
    for (const { operation } of operations) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '429']));
      for (const response of Object.values(operation.responses)) {
        expect(Object.keys(response.headers ?? {})).toEqual(
          expect.arrayContaining([
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
          ]),
        );
      }
      expect(Object.keys(operation.responses['429']?.headers ?? {})).toContain('Retry-After');
    }
  });

  it('marks only getPet deprecated, with Deprecation, Sunset and Link headers', () => {
    const deprecated = operations.filter(({ operation }) => operation.deprecated);
    expect(deprecated.map(({ operation }) => operation.operationId)).toEqual(['getPet']);
    const headers = Object.keys(deprecated[0]?.operation.responses['200']?.headers ?? {});
    expect(headers).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
  });

  it('has examples on the main schemas', () => {
    for (const name of ['Pet', 'NewPet', 'Error', 'Order', 'Category']) {
      expect(document.components?.schemas?.[name]).toHaveProperty('example');
    }
  });
});
