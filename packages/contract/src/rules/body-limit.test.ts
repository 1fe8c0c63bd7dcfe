import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi';
import { BODY_LIMIT_BYTES, BODY_LIMIT_TEXT } from './body-limit';

describe('the body limit', () => {
  it('is 16 KiB', () => {
    expect(BODY_LIMIT_BYTES).toBe(16_384);
    expect(BODY_LIMIT_TEXT).toBe('16 KiB');
  });

  it('is what the OpenAPI document tells developers', () => {
    const document = buildOpenApiDocument();
    const createPet = document.paths['/pets']?.post;
    expect(createPet?.description).toContain(`at most ${BODY_LIMIT_TEXT}`);
    // Every operation's 413 is the one shared response.
    expect(createPet?.responses['413']).toEqual({ $ref: '#/components/responses/PayloadTooLarge' });
    const shared = document.components?.responses?.PayloadTooLarge as { description?: string };
    expect(shared?.description).toContain(BODY_LIMIT_TEXT);
  });
});
