import type { IncomingMessage } from 'node:http';
import type { TTrustedProxies } from '@pets/contract/rules';
import proxyaddr from 'proxy-addr';

/**
 * Who the visitor is, decided once at the site's edge: the socket's peer, or the address a trusted
 * proxy names (TRUSTED_PROXIES, through proxy-addr: the library Fastify uses, so the site and the
 * API read the same setting the same way). The edge passes the result to the pages and actions in
 * VISITOR_HEADER (request-headers.ts).
 */

export type TTrust = (address: string, hop: number) => boolean;

export const trustOf = (trusted: TTrustedProxies): TTrust => {
  if (trusted === false) {
    return () => false;
  }
  if (typeof trusted === 'number') {
    return (_address, hop) => hop < trusted;
  }
  return proxyaddr.compile(trusted);
};

/** The visitor's address (IPv4-mapped IPv6 written as IPv4). */
export const visitorAddressOf = (request: IncomingMessage, trust: TTrust): string => {
  const address = proxyaddr(request, trust);
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
};
