import { CONTRACT_ROUTES } from '@pets/contract';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../test/api-harness';

/**
 * Only the deprecated operation announces a deprecation (`PATCH /v1/pets/{id}`, which
 * shares getPet's path, answered `Deprecation`, `Sunset` and a successor link). Walks every
 * operation of the contract with a staff key, whatever it answers (a 404 for an unknown id, a 400
 * for a missing body), and expects the headers on getPet alone, as the contract marks it.
 */

const api = useTestApi();

const pathOf = (path: string) => path.replace(/:[A-Za-z]+/g, '999999');

describe('deprecation headers', () => {
  it('appear on getPet only, whatever the answer', async () => {
    const key = await api.createKey({ role: 'staff' });
    const announcing: string[] = [];
    for (const { name, route } of CONTRACT_ROUTES) {
      const response = await api.fetch(pathOf(route.path), { method: route.method, key });
      await response.arrayBuffer();
      if (
        response.headers.has('deprecation') ||
        response.headers.has('sunset') ||
        /successor-version/.test(response.headers.get('link') ?? '')
      ) {
        announcing.push(name);
      }
    }
    expect(announcing).toEqual(['getPet']);
    expect(CONTRACT_ROUTES.filter(({ route }) => route.deprecated).map(({ name }) => name)).toEqual(
      ['getPet'],
    );
  });
});
