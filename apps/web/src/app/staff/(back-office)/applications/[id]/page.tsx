import { randomUUID } from 'node:crypto';
import { formatOrderReference } from '@pets/contract/rules';
import {
  DECLINE_REASON_WORDS,
  ORDER_DECLINE_NOTE_MAX_LENGTH,
  ORDER_NOTE_MAX_LENGTH,
  orderActionsFrom,
  type TOrderAction,
  ZDeclineReason,
  ZOrderIdParams,
} from '@pets/contract/schemas';
import { mailtoHref } from '@pets/contract/store';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { BackLink } from '@/components/back-link';
import { Field } from '@/components/form/field';
import { PageIntro } from '@/components/page-intro';
import { PetVisual } from '@/components/pet-visual';
import { staffReadFailure } from '@/components/staff-read-failure';
import { StatusBadge } from '@/components/status-badge';
import { StoreTime } from '@/components/store-time';
import { listCategories } from '@/lib/api';
import { rateLimitedMessage } from '@/lib/messages';
import { petHref } from '@/lib/pet-links';
import { requireStaffKey } from '@/lib/session';
import { findPetAsStaff, getOrder, listOrderNotes } from '@/lib/staff-api';
import { addNote, changeOrder } from '../actions';
import { animalApplicationsHref } from '../application-lists';
import { historyBy, historyStep, OrderStatusBadge } from '../order-status';

type TProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: 'Application' };

const ACTION_WORDS: Record<TOrderAction, { button: string; question: string; done: string }> = {
  approve: {
    button: 'Approve',
    question:
      "Approve this application? The animal is then set aside for this adopter, and the animal's other new applications go on the waiting list.",
    done: 'Approved. The animal is set aside for this adopter; the other applications are waitlisted.',
  },
  decline: {
    button: 'Decline',
    question: 'Decline this application? Choose a reason; the adopter is told it, kindly worded.',
    done: 'Declined. If this application was approved, the animal is available again.',
  },
  complete: {
    button: 'Complete adoption',
    question:
      "Complete this adoption? The animal is then shown as adopted, and the animal's other open applications are declined (adopted by another family).",
    done: 'Adoption completed. The animal is now shown as adopted; the other applications are closed.',
  },
  cancel: {
    button: 'Cancel application',
    question:
      'Cancel this application (for example, the adopter withdrew)? If it was approved, the animal becomes available again.',
    done: 'Cancelled. If it was approved, the animal is available again.',
  },
};

const PROBLEMS: Record<string, string> = {
  conflict:
    'Nothing changed: this application had already moved on (someone else may have handled it). Here is where it stands now.',
  'pet-not-available':
    'Nothing changed: the animal is not available (another application is approved, or the animal was set aside or adopted). Decline or cancel the approved one first.',
  reason: 'Choose a reason for declining.',
  note: `Write something in the note first (at most ${ORDER_NOTE_MAX_LENGTH} characters).`,
  question: `Write the question first (at most ${ORDER_NOTE_MAX_LENGTH} characters).`,
  'notes-full': 'This application has as many notes as it can hold; nothing was added.',
  busy: 'That change is still being made. Wait a moment, then reload this page.',
  unavailable:
    "We can't reach our animal records right now, so nothing changed. Please try again in a minute.",
  failed: 'Something went wrong on our side and nothing changed. Please try again.',
};

const one = (value: string | string[] | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** One application: the animal, the adopter, the message, the history, and what to do next. */
const ApplicationPage = async ({ params, searchParams }: TProps) => {
  await connection();
  const { apiKey } = await requireStaffKey();
  const parsed = ZOrderIdParams.safeParse({ orderId: (await params).id });
  if (!parsed.success) {
    notFound();
  }
  const query = await searchParams;
  const orderId = parsed.data.orderId;
  const here = `/staff/applications/${orderId}`;
  // The notes need only the id: asked for beside the order, not after it.
  const [found, notes] = await Promise.all([
    getOrder(apiKey, orderId),
    listOrderNotes(apiKey, orderId),
  ]);
  if (!found.ok) {
    return staffReadFailure(found.failure, here);
  }
  const order = found.data;
  const [pet, categories] = await Promise.all([
    findPetAsStaff(apiKey, order.petId),
    listCategories(),
  ]);
  const category =
    pet.ok && categories.ok
      ? categories.data.find((each) => each.id === pet.data.categoryId)
      : undefined;
  // What the contract's state machine allows from here, in its order: the next step first.
  const available = orderActionsFrom(order.status);
  const confirming = available.find((action) => action === one(query.confirm));
  const done = Object.keys(ACTION_WORDS).find((action) => action === one(query.done)) as
    | TOrderAction
    | undefined;
  const problem = one(query.problem);
  const wait = Number(one(query.wait));

  return (
    <div className="application">
      <BackLink href="/staff/applications" icon="chevron">
        All applications
      </BackLink>
      <PageIntro
        title={
          <>
            Application {formatOrderReference(order.id)}:{' '}
            {pet.ok ? pet.data.name : `animal #${order.petId}`}
          </>
        }
      >
        <OrderStatusBadge status={order.status} /> Received <StoreTime at={order.placedAt} />
      </PageIntro>

      {done ? (
        <p className="notice" role="status">
          {ACTION_WORDS[done].done}
        </p>
      ) : null}
      {one(query.noted) ? (
        <p className="notice" role="status">
          Note added.
        </p>
      ) : null}
      {one(query.asked) ? (
        <p className="notice" role="status">
          Question sent to {order.adopter.email}. Their answer comes to the store&apos;s email.
        </p>
      ) : null}
      {problem && problem !== 'reason' && problem !== 'note' && problem !== 'question' ? (
        <p className="form__error" role="alert">
          {problem === 'rate-limited' && Number.isFinite(wait) && wait > 0
            ? `${rateLimitedMessage(wait)} Nothing changed.`
            : (PROBLEMS[problem] ?? PROBLEMS.failed)}
        </p>
      ) : null}

      {confirming ? (
        <section className="confirm" aria-labelledby="confirm-title">
          <h2 id="confirm-title" className="confirm__title">
            {ACTION_WORDS[confirming].question}
          </h2>
          <form action={changeOrder} className="confirm__form">
            <input type="hidden" name="orderId" value={String(order.id)} />
            <input type="hidden" name="action" value={confirming} />
            <input type="hidden" name="idempotencyKey" value={randomUUID()} />
            {confirming === 'decline' ? (
              <>
                <Field
                  id="decline-reason"
                  label="Reason"
                  hint="The adopter is told this reason, kindly worded."
                  error={problem === 'reason' ? PROBLEMS.reason : undefined}
                >
                  {(control) => (
                    <select {...control} name="reason" className="select" required defaultValue="">
                      <option value="" disabled>
                        Choose a reason
                      </option>
                      {ZDeclineReason.options.map((reason) => (
                        <option key={reason} value={reason}>
                          {DECLINE_REASON_WORDS[reason].staff}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field
                  id="decline-note"
                  label="Note for the adopter (optional)"
                  hint={`Shown to the adopter as you write it. At most ${ORDER_DECLINE_NOTE_MAX_LENGTH} characters.`}
                >
                  {(control) => (
                    <textarea
                      {...control}
                      name="note"
                      className="textarea"
                      rows={4}
                      maxLength={ORDER_DECLINE_NOTE_MAX_LENGTH}
                    />
                  )}
                </Field>
              </>
            ) : null}
            <div className="confirm__actions">
              <button
                type="submit"
                className={
                  confirming === 'cancel' || confirming === 'decline'
                    ? 'button button--danger'
                    : 'button'
                }
              >
                Yes, {ACTION_WORDS[confirming].button.toLowerCase()}
              </button>
              <Link href={here} className="button button--secondary">
                No, go back
              </Link>
            </div>
          </form>
        </section>
      ) : available.length > 0 ? (
        <div className="application__actions">
          {available.map((action, index) => (
            <Link
              key={action}
              href={`${here}?confirm=${action}`}
              className={
                index === 0 && action !== 'cancel' && action !== 'decline'
                  ? 'button'
                  : 'button button--secondary'
              }
            >
              {ACTION_WORDS[action].button}
            </Link>
          ))}
        </div>
      ) : null}

      <div className="application__grid">
        <section aria-labelledby="animal-title" className="record">
          <h2 id="animal-title" className="record__title">
            The animal
          </h2>
          {pet.ok ? (
            <div className="application__animal">
              <PetVisual
                photo={pet.data.photos[0]}
                categoryName={category?.name}
                size="card"
                alt=""
              />
              <div>
                <p className="card__name">
                  <Link href={petHref(pet.data.id)}>{pet.data.name}</Link>
                </p>
                <p className="card__meta">{category?.name ?? 'Animal'}</p>
                <p>
                  <StatusBadge status={pet.data.status} />
                </p>
                <p>
                  <Link href={animalApplicationsHref(pet.data.id)}>
                    Compare all applications for {pet.data.name}
                  </Link>{' '}
                  ({pet.data.applicationsInReview} in review)
                </p>
                <p>
                  <Link href={`/staff/animals/${pet.data.id}`}>Edit this animal</Link>
                </p>
              </div>
            </div>
          ) : (
            <p>Animal #{order.petId} (its details could not be loaded just now).</p>
          )}
        </section>

        <section aria-labelledby="adopter-title" className="record">
          <h2 id="adopter-title" className="record__title">
            The adopter
          </h2>
          <dl className="facts">
            <div className="facts__row">
              <dt>Name</dt>
              <dd>{order.adopter.name}</dd>
            </div>
            <div className="facts__row">
              <dt>Email</dt>
              <dd>
                <a href={mailtoHref(order.adopter.email)}>{order.adopter.email}</a>
              </dd>
            </div>
            <div className="facts__row">
              <dt>Phone</dt>
              <dd>{order.adopter.phone ?? 'Not given'}</dd>
            </div>
            <div className="facts__row">
              <dt>Household</dt>
              <dd>{order.household ?? 'Not said'}</dd>
            </div>
            <div className="facts__row">
              <dt>Other animals</dt>
              <dd>{order.otherAnimals ?? 'Not said'}</dd>
            </div>
          </dl>
          <h3 className="record__subtitle">Their message</h3>
          <p className="application__message">{order.message ?? 'No message.'}</p>
          <form action={addNote} className="note-form" id="ask">
            <input type="hidden" name="orderId" value={String(order.id)} />
            <input type="hidden" name="kind" value="question" />
            <input type="hidden" name="idempotencyKey" value={randomUUID()} />
            <Field
              id="question-text"
              label="Ask the adopter a question"
              hint="Emailed in the store's name with a link to their application; they reply to the store's email. Kept with the notes."
              error={problem === 'question' ? PROBLEMS.question : undefined}
            >
              {(control) => (
                <textarea
                  {...control}
                  name="text"
                  className="textarea"
                  rows={3}
                  required
                  maxLength={ORDER_NOTE_MAX_LENGTH}
                />
              )}
            </Field>
            <div className="confirm__actions">
              <button type="submit" className="button button--secondary">
                Email the question
              </button>
            </div>
          </form>
        </section>

        <section aria-labelledby="history-title" className="record">
          <h2 id="history-title" className="record__title">
            History
          </h2>
          {order.declineReason ? (
            <dl className="facts">
              <div className="facts__row">
                <dt>Declined because</dt>
                <dd>{DECLINE_REASON_WORDS[order.declineReason].staff}</dd>
              </div>
              <div className="facts__row">
                <dt>Note to the adopter</dt>
                <dd>{order.declineNote ?? 'None'}</dd>
              </div>
            </dl>
          ) : null}
          <ol className="history">
            {order.history.map((entry) => (
              <li key={`${entry.at}-${entry.to}`}>
                <strong>{historyStep(entry)}</strong>{' '}
                <span className="history__meta">
                  <StoreTime at={entry.at} /> · {historyBy(entry, order.adopter.name)}
                </span>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="notes-title" className="record" id="notes">
          <h2 id="notes-title" className="record__title">
            Staff notes
          </h2>
          <p className="field__hint">
            Private to staff: the adopter never sees them (only the questions emailed to them).
          </p>
          {!notes.ok ? (
            <p>The notes could not be loaded just now.</p>
          ) : notes.data.length === 0 ? (
            <p>No notes yet.</p>
          ) : (
            <ol className="history" aria-label="Staff notes">
              {notes.data.map((note) => (
                <li key={note.id}>
                  {note.kind === 'question' ? (
                    <strong className="history__kind">Emailed to the adopter</strong>
                  ) : null}
                  <p className="application__message">{note.text}</p>
                  <span className="history__meta">
                    {note.author} · <StoreTime at={note.createdAt} />
                  </span>
                </li>
              ))}
            </ol>
          )}
          <form action={addNote} className="note-form">
            <input type="hidden" name="orderId" value={String(order.id)} />
            <input type="hidden" name="idempotencyKey" value={randomUUID()} />
            <Field
              id="note-text"
              label="Add a note"
              error={problem === 'note' ? PROBLEMS.note : undefined}
            >
              {(control) => (
                <textarea
                  {...control}
                  name="text"
                  className="textarea"
                  rows={3}
                  required
                  maxLength={ORDER_NOTE_MAX_LENGTH}
                />
              )}
            </Field>
            <div className="confirm__actions">
              <button type="submit" className="button button--secondary">
                Add note
              </button>
            </div>
          </form>
        </section>
      </div>
    </div>
  );
};

export default ApplicationPage;
