import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { TQueryable } from '@pets/db';
import { signingKey } from './signing-keys.repository';

/**
 * Text kept encrypted at rest (AES-256-GCM) with a 32-byte key of `signing_keys`, made by the first
 * process that needs it: webhook endpoints' signing secrets, and the stored answers of idempotent
 * requests (which may hold such a secret, or an adopter's details). The key sits in the same
 * database: this protects a leaked table or a dump of it alone, not the whole database
 * (docs/decisions.md, "Webhooks").
 */

/** `text` encrypted with `key`: base64 of the 12-byte IV, the 16-byte tag and the ciphertext. */
export const seal = (key: Buffer, text: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
};

/** The text `seal` encrypted; throws when it was changed or sealed with another key. */
export const unseal = (key: Buffer, sealed: string): string => {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
};

/**
 * The key named `name`, read once per process (made by the first process that needs it); a
 * failed read is tried again next time.
 */
export const sealingKey = (db: TQueryable, name: string): (() => Promise<Buffer>) => {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= signingKey(db, name).catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
};
