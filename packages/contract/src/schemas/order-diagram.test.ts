import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  OPEN_ORDER_STATUSES,
  ORDER_CONFIRMATION,
  ORDER_SIDE_EFFECTS,
  ORDER_TRANSITIONS,
  type TOrderAction,
  ZOrderStatus,
} from './order';

/**
 * The state diagram of docs/api.md draws the contract's state machine, no more and no less: each
 * transition an arrow labelled with its action (and what it does to the animal), each side effect
 * on the other orders an arrow, every closed status an end.
 */

const GUIDE = join(__dirname, '..', '..', '..', '..', 'docs', 'api.md');

const diagramOf = (markdown: string): string => {
  const section = markdown.slice(markdown.indexOf('## Adoption orders'));
  const match = /```mermaid\n(stateDiagram-v2[\s\S]*?)```/.exec(section);
  if (!match?.[1]) {
    throw new Error('no stateDiagram-v2 under "## Adoption orders" in docs/api.md');
  }
  return match[1];
};

type TArrow = { from: string; to: string; label: string };

const arrowsOf = (diagram: string): TArrow[] =>
  diagram.split('\n').flatMap((line) => {
    const match = /^\s*(\S+)\s*-->\s*(\S+?)\s*(?::\s*(.*))?$/.exec(line);
    return match ? [{ from: match[1] ?? '', to: match[2] ?? '', label: match[3] ?? '' }] : [];
  });

describe('the order state diagram of docs/api.md', () => {
  const arrows = arrowsOf(diagramOf(readFileSync(GUIDE, 'utf8')));
  const labelOf = (from: string, to: string) =>
    arrows.find((arrow) => arrow.from === from && arrow.to === to)?.label ?? '';

  it('has exactly the arrows of ORDER_TRANSITIONS and ORDER_SIDE_EFFECTS, a start and the ends', () => {
    const { from: unconfirmed, to, toWhenOnHold, expiresTo } = ORDER_CONFIRMATION;
    const expected = new Set<string>([
      '[*] placed',
      `[*] ${unconfirmed}`,
      `${unconfirmed} ${to}`,
      `${unconfirmed} ${toWhenOnHold}`,
      `${unconfirmed} ${expiresTo}`,
    ]);
    for (const { from, to } of Object.values(ORDER_TRANSITIONS)) {
      for (const status of from) {
        expected.add(`${status} ${to}`);
      }
    }
    for (const effects of Object.values(ORDER_SIDE_EFFECTS)) {
      if ('others' in effects) {
        for (const status of effects.others.from) {
          expected.add(`${status} ${effects.others.to}`);
        }
      }
    }
    const open: readonly string[] = OPEN_ORDER_STATUSES;
    for (const status of ZOrderStatus.options.filter((each) => !open.includes(each))) {
      expected.add(`${status} [*]`);
    }
    expect(new Set(arrows.map(({ from, to }) => `${from} ${to}`))).toEqual(expected);
  });

  it("labels each transition's arrows with its action and what it does to the animal", () => {
    for (const [action, { from, to }] of Object.entries(ORDER_TRANSITIONS)) {
      const effects: { pet?: string; petIfWasApproved?: string } =
        ORDER_SIDE_EFFECTS[action as TOrderAction];
      for (const status of from) {
        const label = labelOf(status, to);
        expect(label, `${status} --> ${to}`).toContain(action);
        const pet = effects.pet ?? (status === 'approved' ? effects.petIfWasApproved : undefined);
        if (pet) {
          expect(label, `${status} --> ${to}`).toContain(`animal -> ${pet}`);
        }
      }
    }
  });

  it('labels the confirmation and the expiry of an unconfirmed order', () => {
    const { from, to, toWhenOnHold, expiresTo } = ORDER_CONFIRMATION;
    expect(labelOf(from, to)).toContain('confirmOrderByLink');
    expect(labelOf(from, toWhenOnHold)).toContain('confirmOrderByLink');
    expect(labelOf(from, expiresTo)).toContain('24 h unconfirmed');
    expect(labelOf('[*]', from)).toContain('placeOrder');
  });
});
