import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { revokeSession } from './site-api';

/** What the account page says after an "End": ended, already gone, or failed (`?ended=`). */
export type TEndedOutcome = 'done' | 'gone' | 'failed';

const SESSION_ID = /^[1-9][0-9]{0,17}$/;

/**
 * Ends one of the person's own sessions (another device; this one is ended by "Sign out") for the
 * account pages' server actions, then back to the page with what happened. A session that is not
 * theirs or no longer open is the API's 404, shown as "already ended"; a credential the API no
 * longer accepts goes to the area's sign-in.
 */
export const endOneSessionOf = async (
  credential: string,
  data: FormData,
  paths: { account: string; expired: string },
): Promise<never> => {
  const id = data.get('id');
  let outcome: TEndedOutcome = 'gone';
  if (typeof id === 'string' && SESSION_ID.test(id)) {
    const answer = await revokeSession(credential, id);
    if (answer.ok) {
      outcome = 'done';
    } else if (answer.failure.kind === 'signed-out') {
      redirect(paths.expired);
    } else if (answer.failure.kind !== 'refused' || answer.failure.status !== 404) {
      outcome = 'failed';
    }
  }
  revalidatePath(paths.account);
  redirect(`${paths.account}?ended=${outcome}`);
};
