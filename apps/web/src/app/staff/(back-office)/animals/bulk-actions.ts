'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { waitInWords } from '@/lib/messages';
import { SESSION_EXPIRED_PATH, SIGN_IN_PATH, staffKey } from '@/lib/session';
import { BULK_EDIT_MAX, bulkChangeOf, bulkChangeWords, selectedPetIds } from '@/lib/staff-animals';
import { listPetsAsStaff, type TStaffFailure, updatePet } from '@/lib/staff-api';

/** What "Set one field" tells: what changed, and each animal that was not changed and why. */
export type TBulkEditState = {
  /** The outcome in one sentence; undefined before the first submission. */
  summary?: string;
  /** The animals not changed, "Rex (#12): no longer in our records." */
  failures: string[];
  /** A problem with the whole submission: nothing was changed. */
  error?: string;
  /** Which field a problem is about, so the form moves the focus there. */
  errorField?: 'change' | 'pets';
};

const animals = (count: number) => `${count} ${count === 1 ? 'animal' : 'animals'}`;

/** Why one animal's PATCH was refused, in words. */
const whyNot = (failure: TStaffFailure): string => {
  switch (failure.kind) {
    case 'not-found':
      return 'it is no longer in our records';
    case 'forbidden':
      return 'your account may not change animals';
    case 'invalid':
      return 'the change was not accepted';
    case 'conflict':
      return 'someone changed it at the same moment; try again';
    case 'rate-limited':
      return `too many changes at once; try again in ${waitInWords(failure.retryAfterSeconds)}`;
    case 'unavailable':
      return 'we could not reach our animal records';
    default:
      return 'something went wrong on our side';
  }
};

/**
 * "Set one field" of the animals list: the chosen field, at the chosen value, on each ticked
 * animal, one `updatePet` each with only that field (so each animal keeps its own event and audit
 * entry, and the API's rules apply as on the edit page). The animals are read first, for their
 * names; one refused PATCH does not stop the others, but a rate limit or an unreachable API does
 * (the rest would be refused too). Works without JavaScript: the form posts here and the page
 * shows the answer.
 */
export const setOneField = async (
  _previous: TBulkEditState,
  data: FormData,
): Promise<TBulkEditState> => {
  const apiKey = await staffKey();
  if (!apiKey) {
    redirect(SIGN_IN_PATH);
  }
  const change = bulkChangeOf(data.get('change'));
  if (!change) {
    return {
      failures: [],
      error: 'Choose the field to set and its value.',
      errorField: 'change',
    };
  }
  const ids = selectedPetIds(data.getAll('pet'));
  if (ids.length === 0) {
    return {
      failures: [],
      error: 'Tick at least one animal in the list, then set the field again.',
      errorField: 'pets',
    };
  }
  if (ids.length > BULK_EDIT_MAX) {
    return {
      failures: [],
      error: `You ticked ${ids.length} animals; one change covers ${BULK_EDIT_MAX} at most. Nothing was changed.`,
      errorField: 'pets',
    };
  }
  const read = await listPetsAsStaff(apiKey, { id: ids.join(','), limit: ids.length });
  if (!read.ok) {
    if (read.failure.kind === 'signed-out') {
      redirect(SESSION_EXPIRED_PATH);
    }
    return {
      failures: [],
      error: `Nothing was changed: ${whyNot(read.failure)}. Please try again.`,
    };
  }
  const names = new Map(read.data.pets.map((pet) => [pet.id, pet.name]));
  const what = bulkChangeWords(change.label, change.words);
  const failures: string[] = [];
  let changed = 0;
  for (const [index, id] of ids.entries()) {
    const name = names.get(id);
    const who = `${name ?? 'An animal'} (#${id})`;
    if (name === undefined) {
      failures.push(`${who}: it is no longer in our records.`);
      continue;
    }
    const result = await updatePet(apiKey, id, change.body);
    if (result.ok) {
      changed += 1;
      continue;
    }
    if (result.failure.kind === 'signed-out') {
      redirect(SESSION_EXPIRED_PATH);
    }
    failures.push(`${who}: ${whyNot(result.failure)}.`);
    if (result.failure.kind === 'rate-limited' || result.failure.kind === 'unavailable') {
      const rest = ids.slice(index + 1);
      if (rest.length > 0) {
        failures.push(`${animals(rest.length)} after it: not tried, for the same reason.`);
      }
      break;
    }
  }
  revalidatePath('/staff/animals');
  const summary =
    changed === ids.length
      ? `${what}, for ${animals(changed)}.`
      : changed === 0
        ? `${what}: no animal was changed.`
        : `${what}, for ${animals(changed)} of the ${ids.length} ticked.`;
  return { summary, failures };
};
