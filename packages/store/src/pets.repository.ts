import type {
  TNewPet,
  TPage,
  TPet,
  TPetAge,
  TPetCoatLength,
  TPetColor,
  TPetDetails,
  TPetEnergyLevel,
  TPetEventType,
  TPetPhoto,
  TPetSex,
  TPetSize,
  TPetStatus,
  TPetsListFilters,
  TPetUpdate,
} from '@pets/contract';
// The light entries at run time: the bench's floor loads this file, and needs no router.
import { toPage } from '@pets/contract/rules';
import {
  nameSearchWords,
  PET_DETAIL_FACTS,
  PET_PROFILE_FIELDS,
  PETS_ARRIVAL_UNKNOWN,
  PETS_CURSOR,
  type TPetProfileInput,
} from '@pets/contract/schemas';
import type { TAuditAction, TPetAuditDetails, TPetFieldChange } from '@pets/contract/site';
import {
  type DB,
  prepare,
  prepareShapes,
  type SelectQueryBuilder,
  sql,
  type TQueryable,
  type TRowOf,
} from '@pets/db';
import type { Pool } from 'pg';
import { auditEntryOf, recordAudit, type TAuditActor } from './audit.repository';
import { recordEvents } from './events.repository';
import { mediaUrl } from './media-url';
import { rfc3339 } from './sql-time';
import { isForeignKeyViolation, withTransaction } from './transaction';

/**
 * The pets table: every statement about pets and the one row -> `TPet` mapping. No Nest in this
 * file: the bench's floor (plain Fastify + pg) sends these same statements through it, imported
 * from `@pets/store/pets.repository`, so that the API and the floor cannot drift apart.
 *
 * listPets and createPet are the API's hottest statements. Each is compiled once, when this module
 * loads (`prepare`), so a request costs one `pool.query` with ready SQL and no builder, compiler or
 * ORM work (Prisma's per-query work cost more CPU than the query itself: bench/README.md). `int8`
 * columns arrive as strings; toPet turns them into numbers, and the photos' storage keys into
 * their public addresses.
 */

/** A photo as pet_photos stores it: the files by their storage keys. */
type TPhotoRow = {
  id: number;
  width: number;
  height: number;
  placeholder: string;
  sizes: { width: number; height: number; key: string }[];
};

/** Every column of a Pet. The date as its text: `pg` would read a DATE as a local midnight. */
const PET_COLUMNS = [
  'id',
  'name',
  'category_id as categoryId',
  'status',
  'description',
  'sex',
  'age',
  'size',
  'breed',
  sql<string | null>`to_char(pets.arrived_at, 'YYYY-MM-DD')`.as('arrivedAt'),
  // The details of issue 28 in one JSON value, read with one JSON.parse: thirteen more columns
  // per animal cost `pg` a parse each (bench: +80 µs of CPU per list page as columns, measured
  // in the floor's process).
  sql<TPetDetails>`json_build_object(
    'goodWithChildren', pets.good_with_children,
    'goodWithDogs', pets.good_with_dogs,
    'goodWithCats', pets.good_with_cats,
    'houseTrained', pets.house_trained,
    'spayedNeutered', pets.spayed_neutered,
    'vaccinated', pets.vaccinated,
    'specialNeeds', pets.special_needs,
    'specialNeedsNote', pets.special_needs_note,
    'energyLevel', pets.energy_level,
    'coatLength', pets.coat_length,
    'colors', to_json(pets.colors),
    'adoptionFee', CASE WHEN pets.adoption_fee_amount IS NULL THEN NULL
      ELSE json_build_object('amount', pets.adoption_fee_amount, 'currency', pets.adoption_fee_currency) END)`.as(
    'details',
  ),
  // The animal's pet_photos rows in order, kept up to date by a trigger of the database
  // (migration 20261123151000_pet_photo_list): no subquery per animal of a page.
  sql<TPhotoRow[]>`pets.photo_list`.as('photos'),
  // Kept by the orders repository in each order change's transaction: no count per animal.
  'applications_in_review as applicationsInReview',
  // Stamped by a trigger of the database on every change of the row (photos and orders too).
  rfc3339('pets.updated_at').as('updatedAt'),
] as const;

/** A Pet's row, as Kysely infers it from PET_COLUMNS and the generated types. */
type TPetRow = TRowOf<typeof GET_STATEMENT>;

/** Whether a photo's sizes are already narrowest first, as the upload stores them. */
const isNarrowestFirst = (sizes: TPhotoRow['sizes']): boolean =>
  sizes.every((size, index) => index === 0 || (sizes[index - 1]?.width ?? 0) <= size.width);

/**
 * A stored photo as the API shows it: each file's key turned into its public address, narrowest
 * first (sorted only when they are not already: the upload stores them so, and every list maps
 * every photo of its page).
 */
export const toPhoto = (row: TPhotoRow, mediaBaseUrl: string): TPetPhoto => ({
  id: Number(row.id),
  width: row.width,
  height: row.height,
  placeholder: row.placeholder,
  sizes: (isNarrowestFirst(row.sizes)
    ? row.sizes
    : [...row.sizes].sort((a, b) => a.width - b.width)
  ).map(({ width, height, key }) => ({ width, height, url: mediaUrl(mediaBaseUrl, key) })),
});

const toPet = (row: TPetRow, mediaBaseUrl: string): TPet => ({
  id: Number(row.id),
  name: row.name,
  categoryId: Number(row.categoryId),
  status: row.status,
  description: row.description,
  sex: row.sex,
  age: row.age,
  size: row.size,
  breed: row.breed,
  arrivedAt: row.arrivedAt,
  ...row.details,
  photos: row.photos.map((photo) => toPhoto(photo, mediaBaseUrl)),
  applicationsInReview: row.applicationsInReview,
  updatedAt: row.updatedAt,
});

/**
 * A page request, the cursor already read (`before`: the id of the cursor's animal, the last of
 * the page before; the page starts after it in the list's order); the filters are the
 * contract's (`id`: at most PET_IDS_MAX distinct ids; `name`: the search's words joined by
 * spaces).
 */
export type TPetFilter = TPetsListFilters & {
  limit: number;
  before?: bigint | undefined;
};

type TFilterParams = {
  status: TPetStatus;
  categoryId: string;
  ids: readonly number[] | undefined;
  sex: TPetSex;
  age: TPetAge;
  size: TPetSize;
  /** The name search as a tsquery: each word a prefix (`'bis':* & 'mr':*`). */
  name: string;
  /** updatedSince, as an ISO instant. */
  updatedSince: string;
  /** The yes/no filters as the text `true` or `false` (false would read as absent). */
  goodWithChildren: string;
  goodWithDogs: string;
  goodWithCats: string;
  houseTrained: string;
  spayedNeutered: string;
  vaccinated: string;
  specialNeeds: string;
  energyLevel: TPetEnergyLevel;
  coatLength: TPetCoatLength;
  /** As text: 0 would read as absent. */
  feeMax: string;
  feeCurrency: string;
};

type TListParams = TFilterParams & {
  limit: number;
  before: string;
  /**
   * The sort key of the cursor's animal (with `before`, its id): its updatedAt (sort=updatedAt),
   * its name (sort=name) or its arrival date, `-infinity` when unknown (sort=arrived).
   */
  after: string;
};

/** The filters a list and its count share, in the order of their `$n`. */
const FILTERS = [
  'categoryId',
  'status',
  'ids',
  'sex',
  'age',
  'size',
  'name',
  'updatedSince',
  ...PET_DETAIL_FACTS,
  'energyLevel',
  'coatLength',
  'feeMax',
  'feeCurrency',
] as const;

/** The column of each yes/no filter. */
const FACT_COLUMNS = {
  goodWithChildren: 'good_with_children',
  goodWithDogs: 'good_with_dogs',
  goodWithCats: 'good_with_cats',
  houseTrained: 'house_trained',
  spayedNeutered: 'spayed_neutered',
  vaccinated: 'vaccinated',
  specialNeeds: 'special_needs',
} as const satisfies Record<(typeof PET_DETAIL_FACTS)[number], string>;

/**
 * The name search: the words of the name (the GIN index pets_name_search_idx is on this very
 * expression) against the search's words, each a prefix. The `simple` configuration lower-cases
 * both sides the same way, in the database.
 */
const NAME_DOCUMENT = sql`to_tsvector('simple'::regconfig, pets.name)`;

/** The WHERE of a list or count: one condition per filter given. */
const filtered = <Q extends SelectQueryBuilder<DB, 'pets', object>>(
  query: Q,
  p: TFilterParams,
  has: (name: (typeof FILTERS)[number]) => boolean,
): Q => {
  let where = query;
  if (has('categoryId')) {
    where = where.where('category_id', '=', p.categoryId) as Q;
  }
  if (has('status')) {
    where = where.where('status', '=', p.status) as Q;
  }
  if (has('ids')) {
    where = where.where('id', '=', (eb) => eb.fn<string>('any', [eb.val(p.ids)])) as Q;
  }
  if (has('sex')) {
    where = where.where('sex', '=', p.sex) as Q;
  }
  if (has('age')) {
    where = where.where('age', '=', p.age) as Q;
  }
  if (has('size')) {
    where = where.where('size', '=', p.size) as Q;
  }
  if (has('name')) {
    where = where.where(
      sql<boolean>`${NAME_DOCUMENT} @@ to_tsquery('simple'::regconfig, ${p.name})`,
    ) as Q;
  }
  if (has('updatedSince')) {
    where = where.where('updated_at', '>=', sql<Date>`${p.updatedSince}::timestamptz`) as Q;
  }
  // `= true` leaves out the unknown (NULL) as well as `false`: only what the store knows.
  for (const fact of PET_DETAIL_FACTS) {
    if (has(fact)) {
      where = where.where(FACT_COLUMNS[fact], '=', sql<boolean>`${p[fact]}::boolean`) as Q;
    }
  }
  if (has('energyLevel')) {
    where = where.where('energy_level', '=', p.energyLevel) as Q;
  }
  if (has('coatLength')) {
    where = where.where('coat_length', '=', p.coatLength) as Q;
  }
  if (has('feeCurrency')) {
    where = where.where('adoption_fee_currency', '=', p.feeCurrency) as Q;
  }
  // A fee NULL (unknown) is never <= anything: left out.
  if (has('feeMax')) {
    where = where.where('adoption_fee_amount', '<=', sql<number>`${p.feeMax}::integer`) as Q;
  }
  return where;
};

/**
 * The list statements, one per filter shape (which filters and `before` are given), each compiled
 * once. The status and category filters have indexes whose leading columns are the filtered ones
 * and whose last is `id DESC` (pets_status_id_idx, pets_category_id_id_idx,
 * pets_category_id_status_id_idx), and so have sex, age and size (pets_sex_id_idx,
 * pets_age_id_idx, pets_size_id_idx): a page is one index range scan, the other filters checked on
 * the rows it reads. When a filter keeps most rows, PostgreSQL may prefer walking the primary key
 * backwards and skipping the few others, which is as cheap. The `id` filter is one array
 * parameter, `id = any($n)`, whatever the number of ids: the primary key finds them. The name
 * search uses the GIN index pets_name_search_idx, or the primary key when its words are common
 * (bench/README.md shows the plans at 1,000,000 animals). Each animal's photos come with its row
 * (`photo_list`): still one statement.
 */
const LIST_STATEMENTS = prepareShapes([...FILTERS, 'before'], (db, p: TListParams, has) => {
  let query = filtered(db.selectFrom('pets').select(PET_COLUMNS), p, has);
  if (has('before')) {
    query = query.where('id', '<', p.before);
  }
  return query.orderBy('id', 'desc').limit(p.limit);
});

/**
 * sort=updatedAt: the animal changed longest ago first, ties by id, walked from the cursor's
 * (updatedAt, id) on the index pets_updated_at_id_idx. A row changed after the walk passed it
 * gets a later updated_at (the trigger's stamp only grows) and is read again at the end.
 */
const LIST_BY_UPDATED_AT_STATEMENTS = prepareShapes(
  [...FILTERS, 'after'],
  (db, p: TListParams, has) => {
    let query = filtered(db.selectFrom('pets').select(PET_COLUMNS), p, has);
    if (has('after')) {
      query = query.where(
        sql<boolean>`(pets.updated_at, pets.id) > (${p.after}::timestamptz, ${p.before}::bigint)`,
      );
    }
    return query.orderBy('updated_at', 'asc').orderBy('id', 'asc').limit(p.limit);
  },
);

/** sort=oldest: the primary key walked forwards, from the cursor's id. */
const LIST_OLDEST_STATEMENTS = prepareShapes([...FILTERS, 'before'], (db, p: TListParams, has) => {
  let query = filtered(db.selectFrom('pets').select(PET_COLUMNS), p, has);
  if (has('before')) {
    query = query.where('id', '>', p.before);
  }
  return query.orderBy('id', 'asc').limit(p.limit);
});

/**
 * sort=name: A to Z by lower(name), upper and lower case alike in the database's collation, ties
 * by id; walked from the cursor's (lower(name), id) on pets_name_lower_id_idx, whose expression
 * this is.
 */
const NAME_KEY = sql`lower(pets.name)`;
const LIST_BY_NAME_STATEMENTS = prepareShapes([...FILTERS, 'after'], (db, p: TListParams, has) => {
  let query = filtered(db.selectFrom('pets').select(PET_COLUMNS), p, has);
  if (has('after')) {
    query = query.where(
      sql<boolean>`(${NAME_KEY}, pets.id) > (lower(${p.after}), ${p.before}::bigint)`,
    );
  }
  return query.orderBy(NAME_KEY, 'asc').orderBy('id', 'asc').limit(p.limit);
});

/**
 * sort=arrived: the latest arrival first, ties newest first, the animals whose arrival is unknown
 * last (as `-infinity`, before every date); walked backwards from the cursor's (arrival, id) on
 * pets_arrived_at_id_idx, whose expression this is.
 */
const ARRIVAL_KEY = sql`coalesce(pets.arrived_at, '-infinity'::date)`;
const LIST_BY_ARRIVAL_STATEMENTS = prepareShapes(
  [...FILTERS, 'after'],
  (db, p: TListParams, has) => {
    let query = filtered(db.selectFrom('pets').select(PET_COLUMNS), p, has);
    if (has('after')) {
      query = query.where(
        sql<boolean>`(${ARRIVAL_KEY}, pets.id) < (${p.after}::date, ${p.before}::bigint)`,
      );
    }
    return query.orderBy(ARRIVAL_KEY, 'desc').orderBy('id', 'desc').limit(p.limit);
  },
);

const listStatementsFor = (filter: TPetFilter) => {
  switch (filter.sort) {
    case 'updatedAt':
      return LIST_BY_UPDATED_AT_STATEMENTS;
    case 'oldest':
      return LIST_OLDEST_STATEMENTS;
    case 'name':
      return LIST_BY_NAME_STATEMENTS;
    case 'arrived':
      return LIST_BY_ARRIVAL_STATEMENTS;
    default:
      return LIST_STATEMENTS;
  }
};

/** The sort key of the cursor's animal, as the list's statement takes it ('' for none). */
const afterOf = (filter: TPetFilter): string => {
  if (!filter.before) {
    return '';
  }
  switch (filter.sort) {
    case 'updatedAt':
      return filter.updatedAfter ?? '';
    case 'name':
      return filter.nameAfter ?? '';
    case 'arrived':
      return filter.arrivedAfter === PETS_ARRIVAL_UNKNOWN
        ? '-infinity'
        : (filter.arrivedAfter ?? '');
    default:
      return '';
  }
};

/** What the next page's cursor carries besides the filters: the sort key of the page's last animal. */
const positionOf = (filter: TPetFilter, last: TPetRow): Partial<TPetsListFilters> => {
  switch (filter.sort) {
    case 'updatedAt':
      return { updatedAfter: last.updatedAt };
    case 'name':
      return { nameAfter: last.name };
    case 'arrived':
      return { arrivedAfter: last.arrivedAt ?? PETS_ARRIVAL_UNKNOWN };
    default:
      return {};
  }
};

/** How many animals match the filters (listPets' `include=total_count`): one count per shape. */
const COUNT_STATEMENTS = prepareShapes([...FILTERS], (db, p: TFilterParams, has) =>
  filtered(
    db.selectFrom('pets').select((eb) => eb.fn.countAll<string>().as('total')),
    p,
    has,
  ),
);

/** The profile fields a statement takes as they are; the fee and the colours are reshaped. */
type TPlainProfileField = Exclude<keyof TPetProfileInput, 'adoptionFee' | 'colors'>;

/**
 * The profile as the statements take it, one flat value per column: every field, null for
 * unknown; the colours a list ([] for none), the fee its amount and its currency.
 */
type TProfileParams = {
  [K in TPlainProfileField]: Exclude<TPetProfileInput[K], undefined>;
} & {
  colors: TPetColor[];
  adoptionFeeAmount: number | null;
  adoptionFeeCurrency: string | null;
};

const PLAIN_PROFILE_FIELDS = PET_PROFILE_FIELDS.filter(
  (field): field is TPlainProfileField => field !== 'adoptionFee' && field !== 'colors',
);

/** A body's profile fields as statement parameters: one left out is null (colours: none). */
const profileParams = (input: Partial<TPetProfileInput>): TProfileParams => {
  const params = Object.fromEntries(
    PLAIN_PROFILE_FIELDS.map((field) => [field, input[field] ?? null]),
  ) as unknown as TProfileParams;
  params.colors = input.colors ?? [];
  params.adoptionFeeAmount = input.adoptionFee?.amount ?? null;
  params.adoptionFeeCurrency = input.adoptionFee?.currency ?? null;
  return params;
};

const INSERT_STATEMENT = prepare(
  (
    db,
    p: {
      name: string;
      categoryId: string;
      status: TPetStatus;
      createdBy: string | null;
    } & TProfileParams,
  ) =>
    db
      .insertInto('pets')
      .values({
        name: p.name,
        category_id: p.categoryId,
        status: p.status,
        created_by_api_key_id: p.createdBy,
        description: p.description,
        sex: p.sex,
        age: p.age,
        size: p.size,
        breed: p.breed,
        arrived_at: sql`${p.arrivedAt}::date`,
        good_with_children: p.goodWithChildren,
        good_with_dogs: p.goodWithDogs,
        good_with_cats: p.goodWithCats,
        house_trained: p.houseTrained,
        spayed_neutered: p.spayedNeutered,
        vaccinated: p.vaccinated,
        special_needs: p.specialNeeds,
        special_needs_note: p.specialNeedsNote,
        energy_level: p.energyLevel,
        coat_length: p.coatLength,
        colors: sql`${p.colors}::pet_color[]`,
        adoption_fee_amount: p.adoptionFeeAmount,
        adoption_fee_currency: p.adoptionFeeCurrency,
      })
      .returning(PET_COLUMNS),
);

const CREATOR_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('pets').select('created_by_api_key_id as createdBy').where('id', '=', p.id),
);

/**
 * Who created an animal: `undefined` when no animal has this id, `null` when it was not
 * created through the API (the seed, before the column), else the id of the key that created it.
 * A plain function on the pool: AdmissionGuard enforces the contract's `ownPetOnly` with it.
 */
export const petCreatorOf = async (
  db: TQueryable,
  petId: string,
): Promise<bigint | null | undefined> => {
  const { rows } = await CREATOR_STATEMENT.execute(db, { id: petId });
  const row = rows[0];
  if (!row) {
    return undefined;
  }
  return row.createdBy === null ? null : BigInt(row.createdBy);
};

const GET_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('pets').select(PET_COLUMNS).where('id', '=', p.id),
);

/**
 * One more application in review, only if the animal is available: the row lock makes a
 * placement and an approval of the same animal queue, so no application slips in beside an
 * approval unseen.
 */
const ADMIT_STATEMENT = prepare((db, p: { id: string; inReview: number }) =>
  db
    .updateTable('pets')
    .set({ applications_in_review: sql`applications_in_review + ${p.inReview}::int` })
    .where('id', '=', p.id)
    .where('status', '=', 'available')
    .returning('id'),
);

const STATUS_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('pets').select('status').where('id', '=', p.id),
);

/** The animal's status, its row locked until the transaction ends. */
const LOCK_STATUS_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('pets').select('status').where('id', '=', p.id).forUpdate(),
);

const AFTER_ORDERS_STATEMENT = prepare(
  (db, p: { id: string; status: TPetStatus | null; inReviewDelta: number }) =>
    db
      .updateTable('pets')
      .set({
        status: sql`coalesce(${p.status}::pet_status, status)`,
        applications_in_review: sql`applications_in_review + ${p.inReviewDelta}::integer`,
      })
      .where('id', '=', p.id),
);

/**
 * What adoption orders do to their animal, inside the orders repository's transaction (`db` is
 * its client): the animals' table is written by this repository only.
 */
export const petsInOrders = {
  /**
   * Admits an application for an available animal, its row locked, counting it in review unless
   * it is not (`inReview` false: one waiting for its adopter's confirmation); false (nothing
   * changed) when the animal is not available or does not exist.
   */
  admitApplication: async (db: TQueryable, petId: string, inReview: boolean): Promise<boolean> =>
    (await ADMIT_STATEMENT.execute(db, { id: petId, inReview: Number(inReview) })).rows.length > 0,
  /** The animal's status, or undefined when there is no such animal. */
  statusOf: async (db: TQueryable, petId: string): Promise<TPetStatus | undefined> =>
    (await STATUS_STATEMENT.execute(db, { id: petId })).rows[0]?.status,
  /**
   * The animal's status, its row locked until the transaction ends (undefined: no such animal):
   * every transition of an animal's orders takes this lock first, so they queue per animal.
   */
  lockStatusOf: async (db: TQueryable, petId: string): Promise<TPetStatus | undefined> =>
    (await LOCK_STATUS_STATEMENT.execute(db, { id: petId })).rows[0]?.status,
  /** After orders changed: the animal's new status (null: unchanged) and in-review count. */
  afterOrderChanges: async (
    db: TQueryable,
    petId: string,
    change: { status: TPetStatus | null; inReviewDelta: number },
  ): Promise<void> => {
    if (change.status === null && change.inReviewDelta === 0) {
      return;
    }
    await AFTER_ORDERS_STATEMENT.execute(db, { id: petId, ...change });
  },
};

/** The animal's row, locked until the transaction ends: updatePet's check and write in one. */
const LOCK_STATEMENT = prepare((db, p: { id: string }) =>
  db.selectFrom('pets').select(PET_COLUMNS).where('id', '=', p.id).forUpdate(),
);

/** Whether the animal is on hold for an approved adopter (the order that holds it). */
const HOLDING_ORDER_STATEMENT = prepare((db, p: { petId: string }) =>
  db
    .selectFrom('orders')
    .select('id')
    .where('pet_id', '=', p.petId)
    .where('status', '=', 'approved')
    .limit(1),
);

/** The profile fields an update may set or clear: `set<Field>` says whether it names the field. */
type TProfileChanges = {
  [K in keyof TPetProfileInput as `set${Capitalize<K>}`]: boolean;
};

/** Which profile fields an update names (null included: it clears the field). */
const profileChanges = (input: Partial<TPetProfileInput>): TProfileChanges =>
  Object.fromEntries(
    PET_PROFILE_FIELDS.map((field) => [
      `set${field.charAt(0).toUpperCase()}${field.slice(1)}`,
      input[field] !== undefined,
    ]),
  ) as TProfileChanges;

type TUpdateParams = {
  id: string;
  name: string | null;
  categoryId: string | null;
  status: TPetStatus | null;
} & TProfileParams &
  TProfileChanges;

/**
 * One statement for every combination of fields. A required field given as null keeps its value
 * (coalesce); a profile field, which null clears, is set only when the update names it.
 */
const UPDATE_STATEMENT = prepare((db, p: TUpdateParams) =>
  db
    .updateTable('pets')
    .set({
      name: sql`coalesce(${p.name}::varchar, name)`,
      category_id: sql`coalesce(${p.categoryId}::bigint, category_id)`,
      status: sql`coalesce(${p.status}::pet_status, status)`,
      description: sql`case when ${p.setDescription}::boolean then ${p.description}::varchar else description end`,
      sex: sql`case when ${p.setSex}::boolean then ${p.sex}::pet_sex else sex end`,
      age: sql`case when ${p.setAge}::boolean then ${p.age}::pet_age else age end`,
      size: sql`case when ${p.setSize}::boolean then ${p.size}::pet_size else size end`,
      breed: sql`case when ${p.setBreed}::boolean then ${p.breed}::varchar else breed end`,
      arrived_at: sql`case when ${p.setArrivedAt}::boolean then ${p.arrivedAt}::date else arrived_at end`,
      good_with_children: sql`case when ${p.setGoodWithChildren}::boolean then ${p.goodWithChildren}::boolean else good_with_children end`,
      good_with_dogs: sql`case when ${p.setGoodWithDogs}::boolean then ${p.goodWithDogs}::boolean else good_with_dogs end`,
      good_with_cats: sql`case when ${p.setGoodWithCats}::boolean then ${p.goodWithCats}::boolean else good_with_cats end`,
      house_trained: sql`case when ${p.setHouseTrained}::boolean then ${p.houseTrained}::boolean else house_trained end`,
      spayed_neutered: sql`case when ${p.setSpayedNeutered}::boolean then ${p.spayedNeutered}::boolean else spayed_neutered end`,
      vaccinated: sql`case when ${p.setVaccinated}::boolean then ${p.vaccinated}::boolean else vaccinated end`,
      special_needs: sql`case when ${p.setSpecialNeeds}::boolean then ${p.specialNeeds}::boolean else special_needs end`,
      special_needs_note: sql`case when ${p.setSpecialNeedsNote}::boolean then ${p.specialNeedsNote}::varchar else special_needs_note end`,
      energy_level: sql`case when ${p.setEnergyLevel}::boolean then ${p.energyLevel}::pet_energy_level else energy_level end`,
      coat_length: sql`case when ${p.setCoatLength}::boolean then ${p.coatLength}::pet_coat_length else coat_length end`,
      colors: sql`case when ${p.setColors}::boolean then ${p.colors}::pet_color[] else colors end`,
      adoption_fee_amount: sql`case when ${p.setAdoptionFee}::boolean then ${p.adoptionFeeAmount}::integer else adoption_fee_amount end`,
      adoption_fee_currency: sql`case when ${p.setAdoptionFee}::boolean then ${p.adoptionFeeCurrency}::char(3) else adoption_fee_currency end`,
    })
    .where('id', '=', p.id)
    .returning(PET_COLUMNS),
);

/** The name search's words as a tsquery: every word, as the start of a word of the name. */
const nameQuery = (words: string | undefined): string =>
  words
    ? nameSearchWords(words)
        .map((word) => `'${word}':*`)
        .join(' & ')
    : '';

const factParam = (value: boolean | undefined): string =>
  value === undefined ? '' : String(value);

/**
 * The values of the filters; an absent filter's is empty, which picks the shape without it (so
 * it is not sent: that shape has no `$n` for it).
 */
const filterParams = (filter: TPetsListFilters): TFilterParams => ({
  status: filter.status as TPetStatus,
  categoryId: filter.categoryId ? String(filter.categoryId) : '',
  ids: filter.id,
  sex: filter.sex as TPetSex,
  age: filter.age as TPetAge,
  size: filter.size as TPetSize,
  name: nameQuery(filter.name),
  updatedSince: filter.updatedSince ? new Date(Date.parse(filter.updatedSince)).toISOString() : '',
  goodWithChildren: factParam(filter.goodWithChildren),
  goodWithDogs: factParam(filter.goodWithDogs),
  goodWithCats: factParam(filter.goodWithCats),
  houseTrained: factParam(filter.houseTrained),
  spayedNeutered: factParam(filter.spayedNeutered),
  vaccinated: factParam(filter.vaccinated),
  specialNeeds: factParam(filter.specialNeeds),
  energyLevel: filter.energyLevel as TPetEnergyLevel,
  coatLength: filter.coatLength as TPetCoatLength,
  feeMax: filter.feeMax === undefined ? '' : String(filter.feeMax),
  feeCurrency: filter.feeCurrency ?? '',
});

const listParams = (filter: TPetFilter): TListParams => ({
  ...filterParams(filter),
  limit: filter.limit + 1,
  before: filter.before ? String(filter.before) : '',
  // Both or neither: a cursor of a sort by a column carries the last animal's value and id.
  after: afterOf(filter),
});

/** The statement and its values in `$n` order, for EXPLAIN and reviews. */
const statementOf = <P extends Record<string, unknown>>(
  shapes: {
    statementFor: (params: P) => { sql: string; parameterNames: readonly (string | null)[] };
  },
  params: P,
): { sql: string; values: unknown[] } => {
  const statement = shapes.statementFor(params);
  return {
    sql: statement.sql,
    values: statement.parameterNames.map((name) => params[name as keyof P]),
  };
};

/** The statement a list request sends, with its values in `$n` order: for EXPLAIN and reviews. */
export const listPetsStatement = (filter: TPetFilter): { sql: string; values: unknown[] } =>
  statementOf(listStatementsFor(filter), listParams(filter));

/** The statement that counts a list's animals (`include=total_count`), for EXPLAIN. */
export const countPetsStatement = (filter: TPetsListFilters): { sql: string; values: unknown[] } =>
  statementOf(COUNT_STATEMENTS, filterParams(filter));

/** A categoryId that names no category: the foreign key refused the row. */
export class UnknownCategoryError extends Error {
  constructor(readonly categoryId: number) {
    super(`no category has id ${categoryId}`);
  }
}

/** A status change refused because the animal is on hold for an approved adoption order. */
export class OpenOrderConflictError extends Error {
  constructor(readonly petId: number) {
    super(`animal ${petId} has an approved order`);
  }
}

/** An update refused because the animal is no longer the version the caller named (If-Match). */
export class PreconditionFailedError extends Error {
  constructor(readonly petId: number) {
    super(`animal ${petId} changed since the version the update names`);
  }
}

/**
 * Records events of the animal `petId` as it is now, on `client`'s transaction (the photos' and
 * the orders' changes of an animal): one read of the animal, one insert. Answers the animal as
 * read (undefined when it is gone), for the audit entry written beside the events.
 */
export const recordPetEvents = async (
  client: TQueryable,
  petId: number,
  types: readonly TPetEventType[],
  mediaBaseUrl: string,
): Promise<TPet | undefined> => {
  const { rows } = await GET_STATEMENT.execute(client, { id: String(petId) });
  const row = rows[0];
  if (!row) {
    return undefined;
  }
  const pet = toPet(row, mediaBaseUrl);
  if (types.length > 0) {
    await recordEvents(
      client,
      types.map((type) => ({ type, data: pet })),
    );
  }
  return pet;
};

/** The fields an update may change, in the order the edit form shows them. */
const UPDATABLE_FIELDS = ['name', 'categoryId', 'status', ...PET_PROFILE_FIELDS] as const;

/**
 * The fields whose value differs between two versions of an animal, with both values as a Pet
 * has them (the audit log's record of an update; the site words them).
 */
export const petFieldChanges = (before: TPet, after: TPet): TPetFieldChange[] =>
  UPDATABLE_FIELDS.flatMap((field) => {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ field, from, to }];
  });

/**
 * The audit entry of a write to an animal by `actor` (a staff caller): `pet.created`,
 * `pet.updated`, `pet.status_changed`, `pet.photo_added`, ...; its details name the animal.
 */
export const recordPetAudit = (
  client: TQueryable,
  actor: TAuditActor,
  action: Extract<TAuditAction, `pet.${string}`>,
  petId: number,
  details: TPetAuditDetails,
): Promise<void> =>
  recordAudit(
    client,
    auditEntryOf(actor, { action, targetType: 'pet', targetId: String(petId), details }),
  );

export class PetsRepository {
  /**
   * `mediaBaseUrl`: the configuration's (MEDIA_BASE_URL, or the API's `/media`), which turns the
   * storage keys of photos into their public addresses (mediaUrl).
   */
  constructor(
    private readonly db: Pool,
    private readonly mediaBaseUrl: string,
  ) {}

  private readonly toPet = (row: TPetRow): TPet => toPet(row, this.mediaBaseUrl);

  /**
   * A keyset page, newest first: `limit + 1` rows fetched, the extra one tells that more exist.
   * The next page's cursor carries the filters.
   */
  async list(filter: TPetFilter): Promise<TPage<TPet>> {
    const { rows } = await listStatementsFor(filter).execute(this.db, listParams(filter));
    const page = toPage(rows, filter.limit, PETS_CURSOR, filter);
    const last = page.items[page.items.length - 1];
    if (page.nextCursor !== null && last && filter.sort !== undefined) {
      // The next page starts after the last animal's (sort key, id): the cursor carries both.
      const { before: _, limit: __, ...filters } = filter;
      return {
        items: page.items.map(this.toPet),
        nextCursor: PETS_CURSOR.encode(last.id, { ...filters, ...positionOf(filter, last) }),
      };
    }
    return { items: page.items.map(this.toPet), nextCursor: page.nextCursor };
  }

  /** How many animals match the filters, on every page of the list. */
  async count(filter: TPetsListFilters): Promise<number> {
    const { rows } = await COUNT_STATEMENTS.execute(this.db, filterParams(filter));
    return Number(rows[0]?.total ?? 0);
  }

  /**
   * A new animal, recording the key that created it (`createdBy`, an api_keys id; null: none),
   * and its `pet.created` event (and for a staff `actor` its audit entry) in the same
   * transaction. Rejects with UnknownCategoryError when `categoryId` names no category.
   */
  create(pet: TNewPet, createdBy: bigint | null = null, actor?: TAuditActor): Promise<TPet> {
    const { name, categoryId, status } = pet;
    return withTransaction(this.db, async (client) => {
      const { rows } = await INSERT_STATEMENT.execute(client, {
        name,
        categoryId: String(categoryId),
        status,
        createdBy: createdBy === null ? null : String(createdBy),
        ...profileParams(pet),
      });
      const created = this.toPet(rows[0] as TPetRow);
      await recordEvents(client, [{ type: 'pet.created', data: created }]);
      if (actor) {
        await recordPetAudit(client, actor, 'pet.created', created.id, { name: created.name });
      }
      return created;
    }).catch((error: unknown) => {
      throw isForeignKeyViolation(error) ? new UnknownCategoryError(pet.categoryId) : error;
    });
  }

  async get(id: number): Promise<TPet | null> {
    const { rows } = await GET_STATEMENT.execute(this.db, { id: String(id) });
    const row = rows[0];
    return row ? this.toPet(row) : null;
  }

  /**
   * Changes the fields given (a profile field given as null is cleared), in one transaction that
   * locks the animal's row: null when no animal has this id; OpenOrderConflictError when the
   * status would become anything but `pending` while an approved order holds the animal (the
   * order transitions lock the same row, so no approval comes or goes between the check and the
   * write); applications in review do not tie the animal's status;
   * UnknownCategoryError for a categoryId that names no category. A staff `actor`'s real change
   * is audited in the same transaction: one entry naming the fields that changed, its action
   * `pet.status_changed` when the status is one of them, else `pet.updated`.
   */
  update(
    id: number,
    changes: TPetUpdate,
    precondition?: (current: TPet) => boolean,
    actor?: TAuditActor,
  ): Promise<TPet | null> {
    const params: TUpdateParams = {
      id: String(id),
      name: changes.name ?? null,
      categoryId: changes.categoryId === undefined ? null : String(changes.categoryId),
      status: changes.status ?? null,
      ...profileParams(changes),
      ...profileChanges(changes),
    };
    return withTransaction(this.db, async (client) => {
      const locked = await LOCK_STATEMENT.execute(client, { id: params.id });
      const row = locked.rows[0];
      if (row === undefined) {
        return null;
      }
      const current = this.toPet(row);
      if (precondition && !precondition(current)) {
        throw new PreconditionFailedError(id);
      }
      if (params.status !== null && params.status !== 'pending') {
        const open = await HOLDING_ORDER_STATEMENT.execute(client, { petId: params.id });
        if (open.rows.length > 0) {
          throw new OpenOrderConflictError(id);
        }
      }
      const { rows } = await UPDATE_STATEMENT.execute(client, params);
      const updated = this.toPet(rows[0] as TPetRow);
      // The trigger moves updated_at only on a real change: a PATCH that changes nothing records
      // no event.
      if (updated.updatedAt !== current.updatedAt) {
        await recordEvents(client, [
          { type: 'pet.updated', data: updated },
          ...(updated.status === current.status
            ? []
            : [{ type: 'pet.status_changed' as const, data: updated }]),
        ]);
        if (actor) {
          const fields = petFieldChanges(current, updated);
          const action = fields.some(({ field }) => field === 'status')
            ? 'pet.status_changed'
            : 'pet.updated';
          await recordPetAudit(client, actor, action, id, { name: updated.name, changes: fields });
        }
      }
      return updated;
    }).catch((error: unknown) => {
      throw isForeignKeyViolation(error) && changes.categoryId !== undefined
        ? new UnknownCategoryError(changes.categoryId)
        : error;
    });
  }
}
