import { type TAuditTargetKind, ZListAuditQuery } from '@pets/contract/site';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { Field, InputField } from '@/components/form/field';
import { staffReadFailure } from '@/components/staff-read-failure';
import { StoreTime } from '@/components/store-time';
import { listCategories } from '@/lib/api';
import { AUDIT_ACTION_OPTIONS, auditLine } from '@/lib/audit-words';
import { requireAdmin } from '@/lib/session';
import { listAuditLog, listTeam, type TAuditQuery } from '@/lib/site-api';
import { findPetAsStaff } from '@/lib/staff-api';

export const metadata: Metadata = { title: 'Audit log' };

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** What an entry is about, as the filter offers it (the log's `targetType`). */
const TARGETS = [
  ['pet', 'Animals'],
  ['order', 'Applications'],
  ['account', 'People and their accounts'],
  ['session', 'Sign-ins'],
  ['plan_request', 'Plan requests'],
  ['organization', 'Organisations'],
  ['api_key', 'API keys'],
] as const satisfies readonly (readonly [TAuditTargetKind, string])[];

const SHAPE = ZListAuditQuery.shape;

type TFilterSelectProps = {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  /** The first choice, which filters nothing. */
  anyLabel: string;
  options: readonly (readonly [value: string, label: string])[];
};

/** One of the log's filters: a choice of values, or none. */
const FilterSelect = ({ id, name, label, value, anyLabel, options }: TFilterSelectProps) => (
  <Field id={id} label={label}>
    {(control) => (
      <select {...control} name={name} defaultValue={value ?? ''} className="input">
        <option value="">{anyLabel}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    )}
  </Field>
);

/** A reference as staff write it: "12", "#12" (an animal), "A-12" (an application). */
const REFERENCE = /^(?:#|A-)?([1-9][0-9]{0,17})$/i;

/** The filters of the URL that the API would take; anything else is left out. */
const queryOf = (raw: Record<string, string | string[] | undefined>): TAuditQuery => {
  const valid = <T,>(schema: { safeParse: (value: unknown) => { data?: T } }, name: string) => {
    const value = first(raw[name])?.trim();
    return value ? schema.safeParse(value).data : undefined;
  };
  const targetType = valid(SHAPE.targetType, 'targetType');
  const reference = REFERENCE.exec(first(raw.targetId)?.trim() ?? '')?.[1];
  const query: TAuditQuery = {
    actor: valid(SHAPE.actor, 'actor'),
    action: valid(SHAPE.action, 'action'),
    // One thing's history: an id means nothing without what it is the id of.
    targetType,
    targetId: targetType ? reference : undefined,
    from: valid(SHAPE.from, 'from'),
    to: valid(SHAPE.to, 'to'),
    before: valid(SHAPE.before, 'before'),
  };
  return Object.fromEntries(
    Object.entries(query).filter(([, value]) => value !== undefined),
  ) as TAuditQuery;
};

/**
 * Admins only: who did what, newest first. The filters are a GET form (it works without
 * JavaScript, and a filtered page is a link to share: an animal's page links to its history);
 * "Older" pages on.
 */
const AuditPage = async ({ searchParams }: TProps) => {
  await connection();
  const admin = await requireAdmin();
  const query = queryOf(await searchParams);
  const petId = query.targetType === 'pet' && query.targetId ? Number(query.targetId) : undefined;
  const [log, team, categories, pet] = await Promise.all([
    listAuditLog(admin.apiKey, query),
    listTeam(admin.apiKey),
    listCategories(),
    petId === undefined ? undefined : findPetAsStaff(admin.apiKey, petId),
  ]);
  if (!log.ok) {
    return staffReadFailure(
      log.failure.kind === 'signed-out' ? { kind: 'signed-out' } : { kind: 'failed' },
      '/staff/audit',
    );
  }
  const people = team.ok ? team.data : [];
  const context = {
    categories: categories.ok ? categories.data : [],
    people: new Map(people.map((each) => [each.id, each.name])),
  };
  const { before: _before, ...filters } = query;
  const older = log.data.nextBefore
    ? `/staff/audit?${new URLSearchParams({ ...filters, before: log.data.nextBefore })}`
    : undefined;
  const animal = pet?.ok ? pet.data : undefined;
  return (
    <>
      <div className="page-intro">
        <h1 className="page-title">{animal ? <>History of {animal.name}</> : 'Audit log'}</h1>
        <p className="lead">
          {animal ? (
            <>
              Everything done to <Link href={`/staff/animals/${animal.id}`}>{animal.name}</Link> (#
              {animal.id}) in the back office, newest first.{' '}
              <Link href="/staff/audit">See the whole log</Link>.
            </>
          ) : (
            'Who did what in the back office, newest first. Days are UTC days.'
          )}
        </p>
      </div>
      <form method="get" action="/staff/audit" className="queue__filter audit-filters form">
        <FilterSelect
          id="audit-actor"
          name="actor"
          label="Person"
          value={query.actor}
          anyLabel="Everyone"
          options={people.map((person) => [person.id, `${person.name} (${person.email})`] as const)}
        />
        <FilterSelect
          id="audit-action"
          name="action"
          label="Action"
          value={query.action}
          anyLabel="Any action"
          options={AUDIT_ACTION_OPTIONS}
        />
        <FilterSelect
          id="audit-target-type"
          name="targetType"
          label="About"
          value={query.targetType}
          anyLabel="Anything"
          options={TARGETS}
        />
        <div className="field">
          <label htmlFor="audit-target-id" className="field__label">
            Reference{' '}
            <span className="field__hint">an animal&apos;s #12, an application&apos;s A-12</span>
          </label>
          <input
            id="audit-target-id"
            name="targetId"
            defaultValue={query.targetId}
            className="input"
            size={8}
            inputMode="numeric"
            autoComplete="off"
          />
        </div>
        <InputField
          id="audit-from"
          label="From"
          input={{ name: 'from', type: 'date', defaultValue: query.from }}
        />
        <InputField
          id="audit-to"
          label="To"
          input={{ name: 'to', type: 'date', defaultValue: query.to }}
        />
        <button type="submit" className="button button--secondary">
          Show
        </button>
      </form>
      {log.data.entries.length === 0 ? (
        <p role="status">Nothing was recorded for these filters.</p>
      ) : (
        <ol className="queue" aria-label="Audit entries">
          {log.data.entries.map((entry) => {
            const line = auditLine(entry, context);
            return (
              <li key={entry.id} className="queue__item">
                <span className="queue__title">
                  {entry.actorName} {line.did}
                  {line.target ? (
                    <>
                      {' '}
                      {line.target.href ? (
                        <Link href={line.target.href}>{line.target.text}</Link>
                      ) : (
                        line.target.text
                      )}
                    </>
                  ) : null}
                  {line.changes}
                </span>
                <span className="queue__meta">
                  <StoreTime at={entry.at} />
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <nav aria-label="Audit pages" className="pagination">
        {query.before ? (
          <Link href={`/staff/audit?${new URLSearchParams(filters)}`}>Newest</Link>
        ) : null}
        {older ? <Link href={older}>Older</Link> : null}
      </nav>
    </>
  );
};

export default AuditPage;
