import { PET_DETAIL_FACTS, type TCategory } from '@pets/contract/schemas';
import { type TAuditEntry, type TPetFieldChange, ZPetAuditDetails } from '@pets/contract/site';
import { feeInWords, listInWords } from './pet-details';
import { PET_FORM_LABELS } from './pet-form';
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from './pet-profile';

/**
 * The audit page's lines in words: "Anna Ortiz changed Rex: Good with cats → Yes", "added a photo
 * to Rex", "approved application A-12". An entry is read from what its action recorded (an
 * animal's name and changed fields, ZPetAuditDetails); an action this file does not know is shown
 * as it is stored, so nothing recorded is hidden.
 */

/** One line after the person's name: what they did, the thing (a link), and what changed. */
export type TAuditLine = {
  did: string;
  target?: { href: string; text: string };
  /** After the target: ": Good with cats → Yes; Breed → Collie". */
  changes?: string;
};

/** The filters of the audit page for one thing's history. */
export const petHistoryHref = (petId: number | string): string =>
  `/staff/audit?${new URLSearchParams({ targetType: 'pet', targetId: String(petId) })}`;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Long text (a story, a note) shortened for one line. */
const QUOTE_MAX = 60;
const quoted = (text: string) =>
  `“${text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX - 1).trimEnd()}…` : text}”`;

const labelled = <T extends string>(labels: Record<T, string>, value: unknown) =>
  typeof value === 'string' && value in labels ? labels[value as T] : String(value);

/** The yes/no facts: their null is "Not known" (the others' is "Not said"). */
const FACTS: ReadonlySet<string> = new Set(PET_DETAIL_FACTS);

const FIELD_LABELS: Record<string, string> = { ...PET_FORM_LABELS, colors: 'Colours' };

/** A field's value after a change, as the edit form would show it. */
export const fieldValueWords = (
  field: string,
  value: unknown,
  categories: readonly TCategory[] = [],
): string => {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) {
    return FACTS.has(field) ? 'Not known' : 'Not said';
  }
  if (typeof value === 'boolean') {
    return value ? 'Yes' : 'No';
  }
  switch (field) {
    case 'categoryId':
      return categories.find((category) => category.id === value)?.name ?? `category ${value}`;
    case 'sex':
      return labelled(SEX_LABELS, value);
    case 'age':
      return labelled(AGE_LABELS, value);
    case 'size':
      return labelled(SIZE_LABELS, value);
    case 'colors':
      return Array.isArray(value) ? capitalised(listInWords(value.map(String))) : String(value);
    case 'adoptionFee':
      return typeof value === 'object' && 'amount' in value && 'currency' in value
        ? feeInWords(value as { amount: number; currency: string })
        : String(value);
    case 'description':
    case 'specialNeedsNote':
      return quoted(String(value));
    default:
      return typeof value === 'string' ? capitalised(value) : JSON.stringify(value);
  }
};

/** "Good with cats → Yes; Breed → Collie". */
export const changesInWords = (
  changes: readonly TPetFieldChange[],
  categories: readonly TCategory[] = [],
): string =>
  changes
    .map(
      ({ field, to }) =>
        `${FIELD_LABELS[field] ?? field} → ${fieldValueWords(field, to, categories)}`,
    )
    .join('; ');

const ORDER_WORDS: Record<string, string> = {
  'order.approved': 'approved',
  'order.declined': 'declined',
  'order.completed': 'completed the adoption of',
  'order.cancelled': 'cancelled',
  'order.note_added': 'added a note to',
  'order.question_added': 'asked the adopter of',
};

const PET_WORDS: Record<string, string> = {
  'pet.created': 'added',
  'pet.updated': 'changed',
  'pet.status_changed': 'changed',
  'pet.photo_added': 'added a photo to',
  'pet.photo_removed': 'removed a photo of',
  'pet.photos_reordered': 'reordered the photos of',
};

/** What an entry says after the person's name. */
export const auditLine = (
  entry: Pick<TAuditEntry, 'action' | 'targetType' | 'targetId' | 'details'>,
  categories: readonly TCategory[] = [],
): TAuditLine => {
  if (entry.targetType === 'order') {
    return {
      did: ORDER_WORDS[entry.action] ?? entry.action,
      target: {
        href: `/staff/applications/${entry.targetId}`,
        text: `application A-${entry.targetId}`,
      },
    };
  }
  if (entry.targetType === 'pet') {
    const details = ZPetAuditDetails.safeParse(entry.details);
    const name = details.success ? details.data.name : `animal #${entry.targetId}`;
    const changes = details.success ? (details.data.changes ?? []) : [];
    return {
      did: PET_WORDS[entry.action] ?? entry.action,
      target: { href: `/staff/animals/${entry.targetId}`, text: name },
      ...(changes.length > 0 ? { changes: `: ${changesInWords(changes, categories)}` } : {}),
    };
  }
  return { did: `${entry.action} ${entry.targetType} ${entry.targetId}` };
};
