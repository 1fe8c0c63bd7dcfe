import { networkInterfaces } from 'node:os';
// Next.js's own rule for its dev resources, the one that refused live reload at 127.0.0.1.
import { isCsrfOriginAllowed } from 'next/dist/server/app-render/csrf-protection';
import { describe, expect, it } from 'vitest';
import { devOrigins } from './dev-origins';

/** What Next allows on its own, plus ours (block-cross-site-dev.js). */
const allowed = ['**.localhost', 'localhost', '0.0.0.0', ...devOrigins()];

describe('pnpm dev: the addresses live reload works at', () => {
  it('allows every address of this machine the stack or Next may print, in the form of a URL host', () => {
    const hosts = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map(
        (info) =>
          new URL(
            `http://${info.family === 'IPv6' ? `[${info.address.split('%')[0]}]` : info.address}:3000`,
          ).hostname,
      );
    for (const host of ['localhost', '127.0.0.1', '[::1]', '0.0.0.0', ...hosts]) {
      expect(isCsrfOriginAllowed(host, allowed), host).toBe(true);
    }
  });

  it('still refuses other hosts', () => {
    expect(isCsrfOriginAllowed('evil.example', allowed)).toBe(false);
    expect(
      isCsrfOriginAllowed('10.99.99.99', ['**.localhost', 'localhost', ...devOrigins({}, 'box')]),
    ).toBe(false);
  });

  it('names IPv4 addresses as they are and IPv6 ones in brackets, without a zone', () => {
    const interfaces = {
      eth0: [
        {
          address: '192.168.1.20',
          family: 'IPv4',
          internal: false,
          netmask: '',
          mac: '',
          cidr: null,
        },
        {
          address: 'fe80::1%eth0',
          family: 'IPv6',
          internal: false,
          netmask: '',
          mac: '',
          cidr: null,
          scopeid: 2,
        },
      ],
    } as const;
    expect(devOrigins(interfaces as never, 'Box')).toEqual(
      expect.arrayContaining(['127.0.0.1', '[::1]', 'box', '192.168.1.20', '[fe80::1]']),
    );
  });
});
