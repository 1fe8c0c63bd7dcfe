import type { TStoredApiKeyRecord } from '@pets/store/api-keys.repository';
import type { TAuditActor } from '@pets/store/audit.repository';
import type { AppError } from '../core/app-error';

/** A stored key as the server reads it, found by the SHA-256 of the presented key. */
export type TStoredApiKey = TStoredApiKeyRecord;

/**
 * The authenticated caller of a request: what the handlers and the rate limiter need. Its `start`
 * (e.g. pets_live_3xK9) is the only form of a key that is ever logged.
 */
export type TCaller = Omit<
  TStoredApiKey,
  'hash' | 'revokedAt' | 'previousHash' | 'previousHashExpiresAt'
>;

/**
 * The audit log's actor for a staff caller: a person's session credential (named after them) or
 * a script's staff key. Undefined for partners: their traffic is not audited (the access log has
 * it), so a repository given no actor writes no entry.
 */
export const auditActorOf = (caller: TCaller): TAuditActor | undefined =>
  caller.role === 'staff'
    ? {
        apiKeyId: String(caller.apiKeyId),
        accountId: caller.owner?.type === 'person' ? caller.owner.id : null,
        name: caller.owner?.name ?? caller.name,
      }
    : undefined;

export type TApiKeyLookup = (hash: string) => Promise<TStoredApiKey | null>;
export const API_KEY_LOOKUP = Symbol('API_KEY_LOOKUP');

/**
 * What `identify` found out about a request: the caller of a valid key, or the 401 to answer when
 * there is none. Both fields are always present (one object shape for V8); the identity of a valid
 * key is built once per key-cache load, not per request.
 */
export type TIdentity =
  | { readonly caller: TCaller; readonly error: null }
  | { readonly caller: null; readonly error: AppError };
