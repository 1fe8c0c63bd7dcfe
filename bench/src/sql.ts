/**
 * The SQL of listPets and createPet as the API sends it (apps/api/src/modules/pets/pets.service.ts),
 * for the floor to send and the benchmark to EXPLAIN: one index scan that stops after `limit + 1`
 * rows (the primary key without a filter, pets_status_id_idx or the primary key with a status),
 * keyset pagination below the cursor's id, no OFFSET, no COUNT(*).
 */
export const listPetsSql = ({
  hasStatus,
  hasCursor,
}: {
  hasStatus: boolean;
  hasCursor: boolean;
}): string => {
  const where: string[] = [];
  let parameter = 0;
  if (hasStatus) {
    parameter += 1;
    where.push(`status = $${parameter}::pet_status`);
  }
  if (hasCursor) {
    parameter += 1;
    where.push(`id < $${parameter}`);
  }
  const filter = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
  return `SELECT id, name, category_id, status FROM pets${filter} ORDER BY id DESC LIMIT $${parameter + 1}`;
};

export const CREATE_PET_SQL =
  'INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3::pet_status) RETURNING id, name, category_id, status';

/** The id a cursor points below (the API's format: base64url of `v1:<id>`), or null. */
export const cursorId = (cursor: string): string | null =>
  /^v1:(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1] ?? null;
