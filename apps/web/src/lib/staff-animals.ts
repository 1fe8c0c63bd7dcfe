import {
  PET_DETAIL_FACTS,
  PET_IDS_MAX,
  type TListPetsQueryInput,
  type TPetCoatLength,
  type TPetEnergyLevel,
  type TPetStatus,
  type TPetUpdate,
  ZListPetsQuery,
  ZPetCoatLength,
  ZPetEnergyLevel,
  ZPetStatus,
} from '@pets/contract/schemas';
import { PET_FORM_LABELS } from './pet-form';

/**
 * The back office's animals list (/staff/animals) and its "Set one field" (issue 28), kept apart
 * from the page so both are tested alone. The list's state lives in its address, sent by a GET
 * form, so a filtered list is reloaded, shared and paged without JavaScript:
 *
 *   /staff/animals?name=bis&status=available&category=2&goodWithCats=true&energyLevel=high
 *     &cursor=<api cursor>&select=all
 *
 * Every filter is listPets' own (the name search, status, category and a few of the details);
 * a value listPets would refuse is left out rather than shown as an error, as on the public list.
 * `select=all` starts every row of the page ticked ("Select all on this page" without a script).
 */

/** The yes/no details the list filters by: what staff are asked about most. */
export const STAFF_FACT_FILTERS = [
  'goodWithChildren',
  'goodWithDogs',
  'goodWithCats',
  'specialNeeds',
] as const satisfies readonly (typeof PET_DETAIL_FACTS)[number][];
export type TStaffFactFilter = (typeof STAFF_FACT_FILTERS)[number];

export type TStaffAnimalsQuery = {
  name?: string;
  status?: TPetStatus;
  categoryId?: number;
  facts: Partial<Record<TStaffFactFilter, boolean>>;
  energyLevel?: TPetEnergyLevel;
  coatLength?: TPetCoatLength;
  cursor?: string;
  selectAll: boolean;
};

type TSearchParamsRecord = Record<string, string | string[] | undefined>;

const one = (params: TSearchParamsRecord, name: string): string | undefined => {
  const value = params[name];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text !== '' ? text : undefined;
};

/** A value of the address as listPets reads it, or undefined when listPets would refuse it. */
const parsed = <T>(schema: { safeParse: (text: string) => { data?: T } }, text?: string) =>
  text === undefined ? undefined : schema.safeParse(text).data;
const SHAPE = ZListPetsQuery.shape;

export const parseStaffAnimalsQuery = (params: TSearchParamsRecord): TStaffAnimalsQuery => {
  const name = one(params, 'name')?.trim().replace(/\s+/g, ' ');
  const facts: Partial<Record<TStaffFactFilter, boolean>> = {};
  for (const fact of STAFF_FACT_FILTERS) {
    const value = parsed(SHAPE[fact], one(params, fact));
    if (typeof value === 'boolean') {
      facts[fact] = value;
    }
  }
  const categoryId = parsed(SHAPE.categoryId, one(params, 'category'));
  return {
    name: name && parsed(SHAPE.name, name) !== undefined ? name : undefined,
    status: ZPetStatus.safeParse(one(params, 'status')).data,
    categoryId: typeof categoryId === 'number' ? categoryId : undefined,
    facts,
    energyLevel: ZPetEnergyLevel.safeParse(one(params, 'energyLevel')).data,
    coatLength: ZPetCoatLength.safeParse(one(params, 'coatLength')).data,
    cursor: parsed(SHAPE.cursor, one(params, 'cursor')),
    selectAll: one(params, 'select') === 'all',
  };
};

/** Whether anything narrows the list (the empty state then offers to show every animal). */
export const isFiltered = (query: TStaffAnimalsQuery): boolean =>
  query.name !== undefined ||
  query.status !== undefined ||
  query.categoryId !== undefined ||
  Object.keys(query.facts).length > 0 ||
  query.energyLevel !== undefined ||
  query.coatLength !== undefined;

/** The listPets query of the list (its cursor carries the same filters, so both are sent). */
export const listPetsQueryOf = (query: TStaffAnimalsQuery, limit: number): TListPetsQueryInput => ({
  limit,
  ...(query.name ? { name: query.name } : {}),
  ...(query.status ? { status: query.status } : {}),
  ...(query.categoryId ? { categoryId: query.categoryId } : {}),
  ...Object.fromEntries(Object.entries(query.facts).map(([fact, value]) => [fact, String(value)])),
  ...(query.energyLevel ? { energyLevel: query.energyLevel } : {}),
  ...(query.coatLength ? { coatLength: query.coatLength } : {}),
  ...(query.cursor ? { cursor: query.cursor } : {}),
});

/** The list's address with these filters; `cursor` and `select` as given (the filters are kept). */
export const staffAnimalsHref = (
  query: TStaffAnimalsQuery,
  { cursor, selectAll = false }: { cursor?: string; selectAll?: boolean } = {},
): string => {
  const params = new URLSearchParams();
  if (query.name) {
    params.set('name', query.name);
  }
  if (query.status) {
    params.set('status', query.status);
  }
  if (query.categoryId) {
    params.set('category', String(query.categoryId));
  }
  for (const fact of STAFF_FACT_FILTERS) {
    const value = query.facts[fact];
    if (value !== undefined) {
      params.set(fact, String(value));
    }
  }
  if (query.energyLevel) {
    params.set('energyLevel', query.energyLevel);
  }
  if (query.coatLength) {
    params.set('coatLength', query.coatLength);
  }
  if (cursor) {
    params.set('cursor', cursor);
  }
  if (selectAll) {
    params.set('select', 'all');
  }
  const text = params.toString();
  return text ? `/staff/animals?${text}` : '/staff/animals';
};

// "Set one field": one choice names the field and its value ("goodWithCats=true"), so a form
// without a script cannot send a value that belongs to another field.

/** The most animals one "Set one field" changes: a page of the list at its largest. */
export const BULK_EDIT_MAX = PET_IDS_MAX;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export type TBulkField = (typeof PET_DETAIL_FACTS)[number] | 'energyLevel' | 'coatLength';
export type TBulkChange = {
  /** What the form sends: `field=value`, `null` for "Not known". */
  key: string;
  field: TBulkField;
  body: TPetUpdate;
  /** The value in words: "Yes", "Not known", "High". */
  words: string;
};
export type TBulkGroup = { field: TBulkField; label: string; changes: TBulkChange[] };

const change = (field: TBulkField, value: string | boolean | null, words: string): TBulkChange => ({
  key: `${field}=${String(value)}`,
  field,
  body: { [field]: value } as TPetUpdate,
  words,
});

/** Every change "Set one field" offers, grouped by field, in the edit form's order and words. */
export const BULK_GROUPS: readonly TBulkGroup[] = [
  ...PET_DETAIL_FACTS.map((field) => ({
    field,
    label: PET_FORM_LABELS[field],
    changes: [
      change(field, true, 'Yes'),
      change(field, false, 'No'),
      change(field, null, 'Not known'),
    ],
  })),
  {
    field: 'energyLevel' as const,
    label: PET_FORM_LABELS.energyLevel,
    changes: [
      ...ZPetEnergyLevel.options.map((level) => change('energyLevel', level, capitalised(level))),
      change('energyLevel', null, 'Not said'),
    ],
  },
  {
    field: 'coatLength' as const,
    label: PET_FORM_LABELS.coatLength,
    changes: [
      ...ZPetCoatLength.options.map((coat) => change('coatLength', coat, capitalised(coat))),
      change('coatLength', null, 'Not said'),
    ],
  },
];

const CHANGES = new Map(
  BULK_GROUPS.flatMap((group) => group.changes.map((each) => [each.key, { group, each }] as const)),
);

/** The change a form sent, with its field's label; undefined for anything not on offer. */
export const bulkChangeOf = (key: unknown): (TBulkChange & { label: string }) | undefined => {
  const found = typeof key === 'string' ? CHANGES.get(key) : undefined;
  return found ? { ...found.each, label: found.group.label } : undefined;
};

/** "Good with cats: Yes". */
export const bulkChangeWords = (label: string, words: string): string => `${label}: ${words}`;

/** The animals ticked: distinct ids in the order sent, anything that is no id left out. */
export const selectedPetIds = (values: readonly unknown[]): number[] => [
  ...new Set(
    values
      .filter(
        (value): value is string => typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value),
      )
      .map(Number)
      .filter(Number.isSafeInteger),
  ),
];
