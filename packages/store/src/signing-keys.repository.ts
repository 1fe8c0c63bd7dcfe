import { randomBytes } from 'node:crypto';
import { prepare, type TQueryable } from '@pets/db';

/**
 * The signing_keys table: one secret per purpose, made by the first process that asks for it. The
 * INSERT does nothing when another process made it first, so every instance on the database reads
 * the same secret back.
 */

const INSERT_STATEMENT = prepare((db, p: { name: string; secret: string }) =>
  db
    .insertInto('signing_keys')
    .values({ name: p.name, secret: p.secret })
    .onConflict((conflict) => conflict.column('name').doNothing()),
);

const SELECT_STATEMENT = prepare((db, p: { name: string }) =>
  db.selectFrom('signing_keys').select('secret').where('name', '=', p.name),
);

/** The secret for `name` (32 random bytes), made now if no process made it before. */
export const signingKey = async (db: TQueryable, name: string): Promise<Buffer> => {
  await INSERT_STATEMENT.execute(db, { name, secret: randomBytes(32).toString('base64url') });
  const { rows } = await SELECT_STATEMENT.execute(db, { name });
  const secret = rows[0]?.secret;
  if (secret === undefined) {
    throw new Error(`signing_keys: no secret named ${name} after the insert`);
  }
  return Buffer.from(secret, 'base64url');
};
