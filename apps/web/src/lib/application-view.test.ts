import type { TOrder } from '@pets/contract/schemas';
import { describe, expect, it } from 'vitest';
import { toApplicationView } from './application-view';

const order: TOrder = {
  id: 17,
  petId: 4,
  status: 'approved',
  placedAt: '2026-11-23T10:15:00.000Z',
  updatedAt: '2026-11-23T11:02:00.000Z',
  adopter: { name: 'Ada', email: 'ada@example.org' },
  history: [
    { at: '2026-11-23T10:15:00.000Z', to: 'placed', by: 'pets_live_abcd' },
    { at: '2026-11-23T11:02:00.000Z', from: 'placed', to: 'approved', by: 'pets_live_efgh' },
  ],
};

const LONDON = { replyDays: 3, timeZone: 'Europe/London' };

describe('an application as its adopter sees it', () => {
  it('has its reference, where it stands and each step in plain words', () => {
    const view = toApplicationView(order, 'Biscuit', LONDON);
    expect(view.reference).toBe('A-17');
    expect(view.summary).toMatch(/approved your application\. Come and meet Biscuit/);
    expect(view.steps.map((step) => [step.title, step.when])).toEqual([
      ['Application received', '23 November 2026, 10:15 GMT'],
      ['Approved by the store', '23 November 2026, 11:02 GMT'],
    ]);
  });

  it("dates each step on the store's clock", () => {
    const view = toApplicationView(order, 'Biscuit', { replyDays: 3, timeZone: 'America/Chicago' });
    expect(view.steps.map((step) => step.when)).toEqual([
      '23 November 2026, 04:15 CST',
      '23 November 2026, 05:02 CST',
    ]);
  });

  it('says nothing of the keys that made the changes', () => {
    expect(JSON.stringify(toApplicationView(order, 'Biscuit', LONDON))).not.toContain('pets_live');
  });

  it('gives the reply time of a new application from configuration', () => {
    const view = toApplicationView({ ...order, status: 'placed' }, undefined, {
      ...LONDON,
      replyDays: 1,
    });
    expect(view.summary).toMatch(/within 1 working day to arrange a visit with the animal/);
  });

  it("tells a waitlisted adopter where they stand, without anyone else's name", () => {
    const view = toApplicationView({ ...order, status: 'waitlisted' }, 'Biscuit', LONDON);
    expect(view.summary).toMatch(/approved another application for Biscuit .* waiting list/);
    expect(view.declined).toBeUndefined();
  });

  it("gives a declined adopter the store's reason kindly worded, and its note as written", () => {
    const view = toApplicationView(
      {
        ...order,
        status: 'declined',
        declineReason: 'adopted_by_another_family',
        declineNote: 'Thank you so much for applying.',
      },
      'Biscuit',
      LONDON,
    );
    expect(view.declined).toEqual({
      reason: 'This animal has found a home with another family.',
      note: 'Thank you so much for applying.',
    });
  });

  it('may be withdrawn while open, and says so in words once its adopter withdrew it', () => {
    expect(toApplicationView(order, 'Biscuit', LONDON).isWithdrawable).toBe(true);
    expect(
      toApplicationView({ ...order, status: 'unconfirmed' }, 'Biscuit', LONDON).isWithdrawable,
    ).toBe(false);
    const withdrawn = toApplicationView(
      {
        ...order,
        status: 'cancelled',
        history: [
          ...order.history,
          { at: '2026-11-24T09:00:00.000Z', from: 'approved', to: 'cancelled', by: 'adopter' },
        ],
      },
      'Biscuit',
      LONDON,
    );
    expect(withdrawn.isWithdrawable).toBe(false);
    expect(withdrawn.isWithdrawn).toBe(true);
    expect(withdrawn.summary).toMatch(
      /^You withdrew this application, and the store has been told/,
    );
    expect(withdrawn.steps.at(-1)?.title).toBe('Withdrawn by you');
    // Cancelled by the store: not a withdrawal.
    const closed = toApplicationView(
      {
        ...order,
        status: 'cancelled',
        history: [
          ...order.history,
          {
            at: '2026-11-24T09:00:00.000Z',
            from: 'approved',
            to: 'cancelled',
            by: 'pets_live_efgh',
          },
        ],
      },
      'Biscuit',
      LONDON,
    );
    expect(closed.isWithdrawn).toBe(false);
    expect(closed.steps.at(-1)?.title).toBe('Application closed');
  });
});
