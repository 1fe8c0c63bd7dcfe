import { formatOrderReference, PLAN_TITLES, PLANS, type TPlan } from '@pets/contract/rules';
import { PET_DETAIL_FACTS, type TCategory } from '@pets/contract/schemas';
import {
  AUDIT_ACTION_NAMES,
  isAuditAction,
  type TAuditAction,
  type TAuditEntry,
  type TPetFieldChange,
  ZPetAuditDetails,
} from '@pets/contract/site';
import { feeInWords, listInWords } from './pet-details';
import { PET_FORM_LABELS } from './pet-form';
import { AGE_LABELS, SEX_LABELS, SIZE_LABELS } from './pet-profile';

/**
 * The audit page's lines in words, one for every action the audit log can hold (the contract's
 * AUDIT_ACTIONS: a record over it, so a new action cannot go without words): "Anna Ortiz changed
 * Rex: Good with cats → Yes", "approved application A-12", "signed in with a password", "invited
 * Tom Staff, as staff". An entry is read from what its action recorded (an animal's name and
 * changed fields, a person's or an organisation's name); an action from a newer API than this site
 * is shown as it is stored, so nothing recorded is hidden.
 */

/** One line after the person's name: what they did, the thing (a link, or a name), what changed. */
export type TAuditLine = {
  did: string;
  target?: { href?: string; text: string };
  /** After the target: ": Good with cats → Yes; Breed → Collie". */
  changes?: string;
};

/** What the lines need besides the entry: the categories' names, the team's names by account id. */
export type TAuditContext = {
  categories?: readonly TCategory[];
  people?: ReadonlyMap<string, string>;
};

type TEntry = Pick<TAuditEntry, 'action' | 'targetType' | 'targetId' | 'details'>;

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

// --- What each entry recorded, read leniently: an older entry may lack a detail. -------------

const text = (entry: TEntry, name: string): string | undefined => {
  const value = entry.details[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const count = (entry: TEntry, name: string): number | undefined => {
  const value = entry.details[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

const planTitle = (value: string | undefined): string =>
  value !== undefined && (PLANS as readonly string[]).includes(value)
    ? PLAN_TITLES[value as TPlan]
    : 'another';

const ROLE_WORDS: Record<string, string> = {
  admin: 'admin',
  staff: 'staff',
  developer: 'developer',
};

/** The application an entry is about, linked. */
const application = (entry: TEntry): TAuditLine['target'] => ({
  href: `/staff/applications/${entry.targetId}`,
  text: `application ${formatOrderReference(entry.targetId)}`,
});

/** The animal an entry is about, by its name then, linked; the fields an update changed. */
const animal = (entry: TEntry, context: TAuditContext, did: string): TAuditLine => {
  const details = ZPetAuditDetails.safeParse(entry.details);
  const name = details.success ? details.data.name : `animal #${entry.targetId}`;
  const changes = details.success ? (details.data.changes ?? []) : [];
  return {
    did,
    target: { href: `/staff/animals/${entry.targetId}`, text: name },
    ...(changes.length > 0 ? { changes: `: ${changesInWords(changes, context.categories)}` } : {}),
  };
};

/** The person an account entry is about: by the name it recorded, else the team's, else its id. */
const person = (entry: TEntry, context: TAuditContext): TAuditLine['target'] => ({
  text: text(entry, 'name') ?? context.people?.get(entry.targetId) ?? `account #${entry.targetId}`,
});

const organisation = (entry: TEntry): TAuditLine['target'] => {
  const id = entry.details.organizationId;
  return {
    href: '/staff/plans',
    text:
      text(entry, 'organizationName') ??
      `organisation #${typeof id === 'string' || typeof id === 'number' ? id : entry.targetId}`,
  };
};

const perMinuteAndDay = (rpm: number | undefined, rpd: number | undefined): string =>
  rpm === undefined || rpd === undefined
    ? ''
    : `: ${rpm.toLocaleString('en-GB')} requests a minute, ${rpd.toLocaleString('en-GB')} a day`;

const apiKey = (entry: TEntry): TAuditLine['target'] => {
  const name = text(entry, 'name');
  const start = text(entry, 'start') ?? text(entry, 'oldStart');
  return {
    text: name
      ? `“${name}”${start ? ` (${start}…)` : ''}`
      : start
        ? `${start}…`
        : `#${entry.targetId}`,
  };
};

type TWords = {
  /** The action as the audit page's filter offers it. */
  label: string;
  line: (entry: TEntry, context: TAuditContext) => TAuditLine;
};

const AUDIT_WORDS: Record<TAuditAction, TWords> = {
  'order.approved': {
    label: 'Approved an application',
    line: (entry) => ({ did: 'approved', target: application(entry) }),
  },
  'order.declined': {
    label: 'Declined an application',
    line: (entry) => ({ did: 'declined', target: application(entry) }),
  },
  'order.completed': {
    label: 'Completed an adoption',
    line: (entry) => ({ did: 'completed the adoption of', target: application(entry) }),
  },
  'order.cancelled': {
    label: 'Cancelled an application',
    line: (entry) => ({ did: 'cancelled', target: application(entry) }),
  },
  'order.note_added': {
    label: 'Added a note',
    line: (entry) => ({ did: 'added a note to', target: application(entry) }),
  },
  'order.question_added': {
    label: 'Asked the adopter',
    line: (entry) => ({ did: 'asked the adopter of', target: application(entry) }),
  },
  'pet.created': {
    label: 'Added an animal',
    line: (entry, context) => animal(entry, context, 'added'),
  },
  'pet.updated': {
    label: 'Changed an animal',
    line: (entry, context) => animal(entry, context, 'changed'),
  },
  'pet.status_changed': {
    label: "Changed an animal's status",
    line: (entry, context) => animal(entry, context, 'changed'),
  },
  'pet.photo_added': {
    label: 'Added a photo',
    line: (entry, context) => animal(entry, context, 'added a photo to'),
  },
  'pet.photo_removed': {
    label: 'Removed a photo',
    line: (entry, context) => animal(entry, context, 'removed a photo of'),
  },
  'pet.photos_reordered': {
    label: 'Reordered photos',
    line: (entry, context) => animal(entry, context, 'reordered the photos of'),
  },
  'session.started': {
    label: 'Signed in',
    line: (entry) => ({
      did: text(entry, 'method') === 'passkey' ? 'signed in with a passkey' : 'signed in',
    }),
  },
  'session.ended': { label: 'Signed out', line: () => ({ did: 'signed out' }) },
  'session.revoked': {
    label: 'Ended a session on another device',
    line: () => ({ did: 'ended one of their sessions on another device' }),
  },
  'session.ended_everywhere': {
    label: 'Signed out everywhere',
    line: (entry) => {
      const sessions = count(entry, 'sessions');
      return {
        did: `signed out everywhere${sessions === undefined ? '' : ` (${sessions === 1 ? '1 session' : `${sessions} sessions`} ended)`}`,
      };
    },
  },
  'account.created': {
    label: 'Created an account',
    line: (entry, context) => ({
      did: 'created the account of',
      target: person(entry, context),
      changes: text(entry, 'role')
        ? `, as ${ROLE_WORDS[text(entry, 'role') ?? ''] ?? 'staff'}`
        : '',
    }),
  },
  'account.signed_up': {
    label: 'Signed up as a developer',
    line: () => ({ did: 'signed up for the developer portal' }),
  },
  'account.invited': {
    label: 'Invited someone',
    line: (entry, context) => ({
      did: 'invited',
      target: person(entry, context),
      changes: text(entry, 'role')
        ? `, as ${ROLE_WORDS[text(entry, 'role') ?? ''] ?? 'staff'}`
        : '',
    }),
  },
  'account.invitation_resent': {
    label: 'Sent an invitation again',
    line: (entry, context) => ({
      did: 'sent the invitation again to',
      target: person(entry, context),
    }),
  },
  'account.invitation_accepted': {
    label: 'Joined the team',
    line: () => ({ did: 'accepted their invitation and joined the team' }),
  },
  'account.role_changed': {
    label: "Changed someone's role",
    line: (entry, context) => ({
      did: 'made',
      target: person(entry, context),
      changes: text(entry, 'role') === 'admin' ? ' an admin' : ' staff',
    }),
  },
  'account.deactivated': {
    label: 'Deactivated someone',
    line: (entry, context) => ({ did: 'deactivated', target: person(entry, context) }),
  },
  'account.reactivated': {
    label: 'Reactivated someone',
    line: (entry, context) => ({ did: 'reactivated', target: person(entry, context) }),
  },
  'account.password_changed': {
    label: 'Changed their password',
    line: () => ({ did: 'changed their password' }),
  },
  'account.password_reset': {
    label: 'Reset their password',
    line: () => ({ did: 'reset their password with the emailed link' }),
  },
  'passkey.added': {
    label: 'Added a passkey',
    line: (entry) => ({
      did: text(entry, 'name')
        ? `added the passkey ${quoted(text(entry, 'name') ?? '')}`
        : 'added a passkey',
    }),
  },
  'passkey.removed': {
    label: 'Removed a passkey',
    line: (entry) => ({
      did: text(entry, 'name')
        ? `removed the passkey ${quoted(text(entry, 'name') ?? '')}`
        : 'removed a passkey',
    }),
  },
  'passkey.renamed': {
    label: 'Renamed a passkey',
    line: (entry) => ({
      did: `renamed a passkey${text(entry, 'to') ? ` to ${quoted(text(entry, 'to') ?? '')}` : ''}`,
    }),
  },
  'plan.requested': {
    label: 'Asked for a plan',
    line: (entry) => ({
      did: `asked for the ${planTitle(text(entry, 'to'))} plan for`,
      target: organisation(entry),
    }),
  },
  'plan.withdrawn': {
    label: 'Withdrew a plan request',
    line: (entry) => ({
      did: `withdrew the request for the ${planTitle(text(entry, 'to'))} plan for`,
      target: organisation(entry),
    }),
  },
  'plan.approved': {
    label: 'Approved a plan',
    line: (entry) => ({
      did: `approved the ${planTitle(text(entry, 'to'))} plan for`,
      target: organisation(entry),
      changes: perMinuteAndDay(count(entry, 'rpm'), count(entry, 'rpd')),
    }),
  },
  'plan.declined': {
    label: 'Declined a plan',
    line: (entry) => ({
      did: `declined the ${planTitle(text(entry, 'to'))} plan for`,
      target: organisation(entry),
    }),
  },
  'organization.limits_set': {
    label: "Set an organisation's limits",
    line: (entry) => ({
      did: 'set the limits of',
      target: organisation(entry),
      changes: perMinuteAndDay(count(entry, 'rpm'), count(entry, 'rpd')),
    }),
  },
  'api_key.created': {
    label: 'Created an API key',
    line: (entry) => ({ did: 'created the API key', target: apiKey(entry) }),
  },
  'api_key.revoked': {
    label: 'Revoked an API key',
    line: (entry) => ({ did: 'revoked the API key', target: apiKey(entry) }),
  },
  'api_key.rolled': {
    label: 'Rolled an API key',
    line: (entry) => ({
      did: 'rolled the API key',
      target: apiKey(entry),
      changes: text(entry, 'newStart') ? `: now ${text(entry, 'newStart')}…` : '',
    }),
  },
};

/** Every action with its label, in the contract's order: the audit page's Action filter. */
export const AUDIT_ACTION_OPTIONS: readonly (readonly [TAuditAction, string])[] =
  AUDIT_ACTION_NAMES.map((action) => [action, AUDIT_WORDS[action].label] as const);

/** What an entry says after the person's name. */
export const auditLine = (entry: TEntry, context: TAuditContext = {}): TAuditLine =>
  isAuditAction(entry.action)
    ? AUDIT_WORDS[entry.action].line(entry, context)
    : { did: `${entry.action} ${entry.targetType} ${entry.targetId}` };
