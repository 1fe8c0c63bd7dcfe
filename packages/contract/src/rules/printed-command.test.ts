import { describe, expect, it } from 'vitest';
import { printedCommand } from './printed-command';

describe('a printed command', () => {
  it('is bare at the defaults: a new shell at the repository reaches the same data', () => {
    const dataDir = '/repo/.data';
    expect(printedCommand('pnpm mail', { dataDir })).toBe('pnpm mail');
    expect(printedCommand('pnpm mail', { DATA_DIR: '', dataDir })).toBe('pnpm mail');
    expect(printedCommand('pnpm mail', { DATA_DIR: '.data', MAIL_DIR: 'mail', dataDir })).toBe(
      'pnpm mail',
    );
  });

  it('carries DATA_DIR (its absolute path) and MAIL_DIR when they are not the defaults', () => {
    expect(printedCommand('pnpm mail', { DATA_DIR: 'tmp/pets', dataDir: '/repo/tmp/pets' })).toBe(
      'DATA_DIR=/repo/tmp/pets pnpm mail',
    );
    expect(
      printedCommand('pnpm mail', {
        DATA_DIR: "/srv/Pet's data",
        dataDir: "/srv/Pet's data",
        MAIL_DIR: '/var/mail/pets',
      }),
    ).toBe("DATA_DIR='/srv/Pet'\\''s data' MAIL_DIR=/var/mail/pets pnpm mail");
  });

  it('names DATABASE_URL in words, never its value (it may hold a password)', () => {
    const line = printedCommand('pnpm keys list', {
      dataDir: '/repo/.data',
      DATABASE_URL: 'postgres://pets:secret@db/pets',
    });
    expect(line).toBe('pnpm keys list (with this DATABASE_URL set)');
  });
});
