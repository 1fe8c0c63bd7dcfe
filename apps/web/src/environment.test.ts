import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, parseEnvironment } from './environment';

const ZExample = z.object({
  NAME: z.string().trim().min(1, 'must not be empty').default('Kindred Paws'),
  SECRET: z.string({ required_error: 'is required' }).min(8, 'must be at least 8 characters'),
});

describe('parseEnvironment', () => {
  it('applies defaults to unset and empty variables and ignores the rest of the environment', () => {
    expect(parseEnvironment(ZExample, { NAME: '', SECRET: '12345678', PATH: '/bin' })).toEqual({
      NAME: 'Kindred Paws',
      SECRET: '12345678',
    });
  });

  it('counts a value of spaces as unset only when asked to', () => {
    const environment = { NAME: '   ', SECRET: '12345678' };
    expect(parseEnvironment(ZExample, environment, { isBlankUnset: true }).NAME).toBe(
      'Kindred Paws',
    );
    expect(() => parseEnvironment(ZExample, environment)).toThrow(
      'Invalid configuration: NAME must not be empty',
    );
  });

  it('names the variable and the problem in one line, never the value', () => {
    const parse = () => parseEnvironment(ZExample, { SECRET: 'hunter2' });
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow('Invalid configuration: SECRET must be at least 8 characters');
    expect(parse).not.toThrow(/hunter2/);
  });
});
