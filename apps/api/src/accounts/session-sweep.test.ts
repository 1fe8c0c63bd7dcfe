import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '../jobs/job-queue';
import { createPet, placedOrder } from '../modules/orders/orders.test-support';
import { startTestApi, type TTestApi } from '../test/api-harness';
import {
  ACCOUNT_TEST_ENV,
  createAccount,
  signInAs,
  type TSignedIn,
  type TTestSite,
  testSite,
} from './accounts.test-support';
import { SESSION_SWEEP_DAYS } from './session-sweep';

/**
 * The daily sweep of ended sessions over a real database, run by the API's own job worker: a
 * session that ended more than 30 days ago goes with its credential, unless the credential wrote
 * history (a note, an order), which must go on naming the person; recent and open sessions stay.
 */

let api: TTestApi;
let site: TTestSite;
let categoryId: number;

beforeAll(async () => {
  api = await startTestApi({ env: ACCOUNT_TEST_ENV });
  site = await testSite(api);
  categoryId = Number((await api.prisma.category.create({ data: { name: 'Ferrets' } })).id);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

const staffSession = async (name: string) =>
  signInAs(site, await createAccount(api, 'staff', { name }));

/** Moves a session's end `days` ago: ended (signed out) then, or idle since then. */
const endedDaysAgo = async (who: TSignedIn, days: number, how: 'signed-out' | 'idle') => {
  await api.pool.query(
    how === 'signed-out'
      ? `UPDATE account_sessions SET ended_at = now() - make_interval(days => $2), ended_reason = 'sign_out' WHERE id = $1`
      : `UPDATE account_sessions SET last_seen_at = now() - make_interval(days => $2) WHERE id = $1`,
    [who.session.id, days],
  );
};

const sessionExists = async (who: TSignedIn) =>
  (await api.pool.query('SELECT 1 FROM account_sessions WHERE id = $1', [who.session.id]))
    .rowCount === 1;

const credentialExists = async (who: TSignedIn) =>
  (await api.pool.query('SELECT 1 FROM api_keys WHERE session_id = $1', [who.session.id]))
    .rowCount === 1;

const runSweep = async () => {
  const boss = new PgBoss({
    connectionString: api.database.url,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.send(QUEUES.sweepSessions, {});
  await boss.stop({ graceful: false });
};

describe(`the sweep of sessions ended more than ${SESSION_SWEEP_DAYS} days ago`, () => {
  it('deletes old ones with their credentials, keeps recent, open and history-bearing ones', async () => {
    const partner = await api.createKey({ name: 'Partner' });
    // Wrote a note on an application: its credential is history, and stays.
    const noteWriter = await staffSession('Nadia Notes');
    const order = await placedOrder(api, partner, await createPet(api, partner, categoryId, 'Fig'));
    const note = await site.asPerson(noteWriter.credential, `/v1/store/orders/${order.id}/notes`, {
      body: { text: 'Called them: a garden.' },
    });
    expect(note.status, await note.clone().text()).toBe(201);
    // Created an animal: the animal stays, without its creator key.
    const petMaker = await staffSession('Pablo Pets');
    const pet = await site.asPerson(petMaker.credential, '/v1/pets', {
      body: { name: 'Rosie', categoryId },
    });
    expect(pet.status, await pet.clone().text()).toBe(201);
    const petId = ((await pet.json()) as { id: number }).id;
    // ...and approved an application: its history names Pablo, with no reference to the key.
    const approvedOrder = await placedOrder(
      api,
      partner,
      await createPet(api, partner, categoryId, 'Moss'),
    );
    const approval = await site.asPerson(
      petMaker.credential,
      `/v1/store/orders/${approvedOrder.id}/approve`,
      { method: 'POST' },
    );
    expect(approval.status, await approval.clone().text()).toBe(200);
    const signedOutLongAgo = await staffSession('Olga Old');
    const idleLongAgo = await signInAs(site, await createAccount(api, 'developer'));
    const signedOutLately = await staffSession('Rita Recent');
    const open = await staffSession('Otto Open');

    for (const old of [noteWriter, petMaker, signedOutLongAgo]) {
      await endedDaysAgo(old, SESSION_SWEEP_DAYS + 1, 'signed-out');
    }
    await endedDaysAgo(idleLongAgo, SESSION_SWEEP_DAYS + 2, 'idle');
    await endedDaysAgo(signedOutLately, SESSION_SWEEP_DAYS - 1, 'signed-out');

    await runSweep();
    const deadline = Date.now() + 30_000;
    while (await sessionExists(signedOutLongAgo)) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    for (const gone of [signedOutLongAgo, idleLongAgo, petMaker]) {
      expect(await sessionExists(gone), gone.account.name).toBe(false);
      expect(await credentialExists(gone), gone.account.name).toBe(false);
    }
    for (const kept of [noteWriter, signedOutLately, open]) {
      expect(await sessionExists(kept), kept.account.name).toBe(true);
      expect(await credentialExists(kept), kept.account.name).toBe(true);
    }
    // The open session still works.
    expect((await site.asPerson(open.credential, '/internal/session')).status).toBe(200);

    // History still names the people: the note's author, the approval's.
    const staffKey = await api.createKey({ name: 'Script', role: 'staff' });
    const notes = (await (
      await api.fetch(`/v1/store/orders/${order.id}/notes`, { key: staffKey })
    ).json()) as { author: string }[];
    expect(notes.map((each) => each.author)).toEqual(['Nadia Notes']);
    const approved = (await (
      await api.fetch(`/v1/store/orders/${approvedOrder.id}`, { key: staffKey })
    ).json()) as { history: { to: string; byName?: string }[] };
    expect(approved.history.find((entry) => entry.to === 'approved')?.byName).toBe('Pablo Pets');
    // The animal Pablo created stays, with no creator key to point at.
    const animal = await api.pool.query<{ createdBy: string | null }>(
      'SELECT created_by_api_key_id AS "createdBy" FROM pets WHERE id = $1',
      [petId],
    );
    expect(animal.rows).toEqual([{ createdBy: null }]);
  });
});
