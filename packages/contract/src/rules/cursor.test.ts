import { describe, expect, it } from 'vitest';
import { MAX_ID } from '../schemas/common';
import { decodeCursor, encodeCursor, listCursor, listCursorMaxLength, toPage } from './cursor';

/** The format cursors were issued in before it moved here (Node's Buffer): they must stay valid. */
const issuedBefore = (id: bigint | number) => Buffer.from(`v1:${id}`).toString('base64url');

describe('encodeCursor', () => {
  it('is base64url of v1:<id>, without padding', () => {
    expect(encodeCursor(22n)).toBe('djE6MjI');
    expect(encodeCursor('22')).toBe('djE6MjI');
    expect(encodeCursor(22)).toBe('djE6MjI');
  });

  it.each([1, 9, 10, 63, 64, 999, 123_456, 2 ** 31, 10 ** 15, MAX_ID])(
    'matches the cursors already issued for %d',
    (id) => {
      expect(encodeCursor(BigInt(id))).toBe(issuedBefore(id));
      expect(decodeCursor(issuedBefore(id))).toBe(BigInt(id));
    },
  );
});

describe('decodeCursor', () => {
  it('agrees with the cursors already issued over a range of ids', () => {
    for (let id = 1; id <= 5_000; id += 1) {
      expect(encodeCursor(id)).toBe(issuedBefore(id));
    }
  });

  it('reads back every id it encodes', () => {
    for (const id of [1n, 7n, 42n, 300_000n, BigInt(MAX_ID)]) {
      expect(decodeCursor(encodeCursor(id))).toBe(id);
    }
  });

  it.each([
    ['an id of 0', issuedBefore(0)],
    ['an id above MAX_ID', issuedBefore(BigInt(MAX_ID) + 1n)],
    ['a leading zero', Buffer.from('v1:007').toString('base64url')],
    ['another version', Buffer.from('v3:7').toString('base64url')],
    ['a negative id', Buffer.from('v1:-7').toString('base64url')],
    ['padding', Buffer.from('v1:22').toString('base64')],
    ['trailing garbage', `${encodeCursor(22n)}.`],
    ['not base64 at all', '%%%'],
    ['the empty string', ''],
    ['an id in clear', '22'],
  ])('refuses %s', (_case, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});

describe('toPage', () => {
  const rows = [{ id: 9 }, { id: 7 }, { id: 4 }];

  it('keeps limit rows and points the next cursor below the last one kept', () => {
    expect(toPage(rows, 2)).toEqual({ items: [{ id: 9 }, { id: 7 }], nextCursor: encodeCursor(7) });
  });

  it('has no next cursor when nothing is left', () => {
    expect(toPage(rows, 3)).toEqual({ items: rows, nextCursor: null });
    expect(toPage([], 3)).toEqual({ items: [], nextCursor: null });
  });
});

describe("listCursor: a cursor that carries its list's filters", () => {
  type TFilters = { kind?: 'a' | 'b' | undefined; n?: number | undefined };
  const list = listCursor<TFilters>({
    kind: {
      write: (kind) => kind,
      read: (text) => (text === 'a' || text === 'b' ? text : undefined),
    },
    n: { write: String, read: (text) => (/^\d+$/.test(text) ? Number(text) : undefined) },
  });
  const text = (cursor: string) => Buffer.from(cursor, 'base64url').toString();

  it('is base64url of v2:<id>:<filter>... in the fixed order, empty when absent', () => {
    expect(text(list.encode(42, { kind: 'a', n: 7 }))).toBe('v2:42:a:7');
    expect(text(list.encode(42n, { n: 7 }))).toBe('v2:42::7');
    expect(text(list.encode('42', {}))).toBe('v2:42::');
  });

  it('sent alone, gives back the filters it carries', () => {
    expect(list.read(list.encode(42, { kind: 'b', n: 7 }), {})).toEqual({
      before: 42n,
      filters: { kind: 'b', n: 7 },
    });
  });

  it('accepts the same filters sent again, and refuses a different or an added one', () => {
    const cursor = list.encode(42, { kind: 'b' });
    expect(list.read(cursor, { kind: 'b' })).toEqual({ before: 42n, filters: { kind: 'b' } });
    expect(list.read(cursor, { kind: 'a' })).toEqual({ mismatch: 'kind', issued: 'b' });
    expect(list.read(cursor, { n: 3 })).toEqual({ mismatch: 'n', issued: undefined });
  });

  it('reads a cursor of the first format with the filters sent, as before', () => {
    expect(list.read(encodeCursor(42), { kind: 'a' })).toEqual({
      before: 42n,
      filters: { kind: 'a' },
    });
  });

  it.each([
    ['a filter value write never gives', 'v2:42:c:'],
    ['a value in another spelling', 'v2:42::07'],
    ['a filter too few', 'v2:42:a'],
    ['a filter too many', 'v2:42:a:1:'],
    ['an id of 0', 'v2:0::'],
    ['an id with a leading zero', 'v2:042::'],
    ['an id above MAX_ID', `v2:${BigInt(MAX_ID) + 1n}::`],
    ['another version', 'v3:42::'],
  ])('refuses %s', (_case, payload) => {
    expect(list.read(Buffer.from(payload).toString('base64url'), {})).toBeNull();
  });

  it('refuses padding and other alphabets', () => {
    const cursor = list.encode(42, { kind: 'a' });
    expect(list.read(`${cursor}=`, {})).toBeNull();
    expect(list.read(Buffer.from('v2:42:a:').toString('base64'), {})).toBeNull();
  });

  it('toPage encodes the next cursor with the filters given', () => {
    const page = toPage([{ id: 9 }, { id: 7 }, { id: 4 }], 2, list, { n: 5 });
    expect(page.nextCursor && text(page.nextCursor)).toBe('v2:7::5');
  });

  it('listCursorMaxLength bounds every cursor', () => {
    const longest = list.encode(MAX_ID, { kind: 'a', n: 999 });
    expect(longest.length).toBeLessThanOrEqual(listCursorMaxLength([1, 3]));
    expect(listCursorMaxLength([1, 3])).toBeLessThanOrEqual(longest.length + 2);
  });
});
