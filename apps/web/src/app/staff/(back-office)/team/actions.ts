'use server';

import { isEmailAddress } from '@pets/contract/rules';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { SESSION_EXPIRED_PATH, staffKey } from '@/lib/session';
import {
  changeTeamRole,
  inviteToTeam,
  setTeamMemberActive,
  type TSiteFailure,
} from '@/lib/site-api';

export type TInviteState = { error?: string; invited?: string };

const textOf = (data: FormData, name: string): string => {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
};

const roleOf = (value: string): 'admin' | 'staff' => (value === 'admin' ? 'admin' : 'staff');

const credentialOrSignIn = async (): Promise<string> =>
  (await staffKey()) ?? redirect(SESSION_EXPIRED_PATH);

const refusalOf = (failure: TSiteFailure): string => {
  switch (failure.kind) {
    case 'signed-out':
      redirect(SESSION_EXPIRED_PATH);
      break;
    case 'refused':
      return failure.message || 'That was refused.';
    case 'invalid':
      return failure.error.message;
    default:
      return 'Something went wrong on our side. Please try again.';
  }
  return '';
};

/** Invites a person by email as staff or admin: the invitation email is on its way. */
export const invitePerson = async (
  _previous: TInviteState,
  data: FormData,
): Promise<TInviteState> => {
  const credential = await credentialOrSignIn();
  const email = textOf(data, 'email').trim();
  const name = textOf(data, 'name').trim();
  if (!isEmailAddress(email)) {
    return { error: 'Enter the email address of the person to invite.' };
  }
  if (name === '' || name.length > 100) {
    return { error: 'Enter their name (up to 100 characters); they can change it when they join.' };
  }
  const answer = await inviteToTeam(credential, {
    email,
    name,
    role: roleOf(textOf(data, 'role')),
  });
  if (!answer.ok) {
    return { error: refusalOf(answer.failure) };
  }
  revalidatePath('/staff/team');
  return { invited: answer.data.email };
};

/** Changes a person's role, or deactivates or reactivates them, from a row of the team page. */
export const changeMember = async (data: FormData): Promise<void> => {
  const credential = await credentialOrSignIn();
  const id = textOf(data, 'id');
  const change = textOf(data, 'change');
  if (!/^[1-9][0-9]{0,17}$/.test(id)) {
    redirect('/staff/team');
  }
  const answer =
    change === 'deactivate' || change === 'reactivate'
      ? await setTeamMemberActive(credential, id, change === 'reactivate')
      : await changeTeamRole(credential, id, roleOf(change));
  if (!answer.ok) {
    redirect(`/staff/team?${new URLSearchParams({ refused: refusalOf(answer.failure) })}`);
  }
  revalidatePath('/staff/team');
  redirect(`/staff/team?${new URLSearchParams({ changed: answer.data.email })}`);
};
