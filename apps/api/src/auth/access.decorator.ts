import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

/**
 * Who may call a handler:
 * - `key` (the default: every handler without the decorator): a valid API key, counted on the key;
 * - `keyless`: anyone, counted per client address with the Free plan's numbers, like any request
 *   without a valid key (a key, if sent, is not looked at); its responses carry rate-limit headers;
 * - `public`: anyone, outside /v1 (health, docs): no key, no rate limit.
 *
 * Roles come next: the rule will also name the role a key needs (e.g. `@Access('key', 'staff')`,
 * the metadata then an object), read by `accessOf` and enforced by AccessGuard with a 403.
 */
export type TAccess = 'key' | 'keyless' | 'public';

export const Access = Reflector.createDecorator<TAccess>();

/** The access rule of the handler of a request: the one place the marker is read. */
export const accessOf = (reflector: Reflector, context: ExecutionContext): TAccess =>
  reflector.get(Access, context.getHandler()) ?? 'key';
