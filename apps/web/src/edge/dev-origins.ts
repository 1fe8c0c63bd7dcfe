import { hostname, type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

/**
 * The hosts `pnpm dev`'s site may be opened at, for Next.js's `allowedDevOrigins`. Next allows only
 * `localhost` (and the hostname it was given, our edge's 0.0.0.0) to reach its dev resources, so live
 * reload (`/_next/webpack-hmr`) was refused at http://127.0.0.1:3000 and at the machine's network
 * address ("Blocked cross-origin request"). These are this machine's own names and addresses, not
 * anyone else's; production ignores the setting.
 */
export const devOrigins = (
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
  machine: string = hostname(),
): string[] => {
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    // Next compares the origin's URL hostname, which has an IPv6 address in brackets.
    .map((info) => (info.family === 'IPv6' ? `[${info.address.split('%')[0]}]` : info.address));
  return [...new Set(['127.0.0.1', '[::1]', '0.0.0.0', machine.toLowerCase(), ...addresses])];
};
