import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_RESPONSE_BODY_MAX_BYTES, WEBHOOK_TIMEOUT_SECONDS } from '@pets/contract';

/**
 * One delivery attempt: a signed POST per the Standard Webhooks specification, to an address
 * checked at connect time (SSRF). The name is resolved here, every address it resolves to is
 * checked, and the socket connects to those checked addresses (the request's own `lookup`), so a
 * name that resolves differently a moment later (DNS rebinding) cannot slip a private address
 * in between the check and the connection. No redirect is followed.
 */

/** Networks that are not the public Internet: loopback, private, link-local, reserved... */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID...)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}
const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const IPV4_MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) carries, if it is one. */
const mappedIpv4 = (address: string): string | undefined => {
  const dotted = IPV4_MAPPED.exec(address);
  if (dotted) {
    return dotted[1];
  }
  const hex = IPV4_MAPPED_HEX.exec(address);
  if (!hex) {
    return undefined;
  }
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/** Whether `address` (an IP literal) is on the public Internet. */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 4) {
    return !NON_PUBLIC.check(address, 'ipv4');
  }
  if (family !== 6) {
    return false;
  }
  const ipv4 = mappedIpv4(address.split('%')[0] ?? address);
  if (ipv4 !== undefined) {
    return isPublicAddress(ipv4);
  }
  return !NON_PUBLIC.check(address.split('%')[0] ?? address, 'ipv6');
};

/** A URL's host without IPv6 brackets: `[::1]` -> `::1`. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type TAddressRules = { isHttpAllowed: boolean; isPrivateAllowed: boolean };

/**
 * Why `url` may not be an endpoint's address, or undefined when it may: a scheme other than
 * https (and http when allowed), a user name or password, or a literal IP that is not public.
 * A name is checked when it is resolved, at each attempt.
 */
export const urlProblem = (text: string, rules: TAddressRules): string | undefined => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(rules.isHttpAllowed && url.protocol === 'http:')) {
    return rules.isHttpAllowed ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not contain a user name or password';
  }
  const host = hostOf(url);
  if (!rules.isPrivateAllowed && isIP(host) !== 0 && !isPublicAddress(host)) {
    return `must be a public address: ${host} is a loopback, private, link-local or reserved address`;
  }
  return undefined;
};

/** A refused address, as the attempt's error says it. */
export class RefusedAddressError extends Error {}

/**
 * The lookup the socket connects with: every address of the name, each checked; a name with
 * any non-public address is refused whole (a rebinding name often answers both kinds).
 */
const checkedLookup =
  (rules: TAddressRules): LookupFunction =>
  (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family ?? 0 }).then(
      (addresses) => {
        const refused = addresses.find(({ address }) => !isPublicAddress(address));
        if (refused && !rules.isPrivateAllowed) {
          callback(
            new RefusedAddressError(
              `refused: ${hostname} resolves to ${refused.address}, a loopback, private, link-local or reserved address`,
            ),
            '',
          );
          return;
        }
        if (options.all) {
          callback(null, addresses);
          return;
        }
        const first = addresses[0];
        if (!first) {
          callback(new Error(`${hostname} has no address`), '');
          return;
        }
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  };

/** The `webhook-signature` value: one `v1,<base64>` per secret, space-separated. */
export const signatures = (
  secrets: readonly string[],
  messageId: string,
  timestamp: number,
  body: string,
): string =>
  secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      const mac = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`);
      return `v1,${mac.digest('base64')}`;
    })
    .join(' ');

export type TSendResult = {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  isSuccess: boolean;
};

/** Largest answer read: the rest is not waited for. */
const READ_LIMIT_BYTES = 64 * 1024;

export type TWebhookMessage = {
  url: string;
  messageId: string;
  body: string;
  secrets: readonly string[];
};

/** Sends one attempt; never throws: a failure is the result's `error`. */
export const sendWebhook = async (
  message: TWebhookMessage,
  rules: TAddressRules,
  timeoutMs = WEBHOOK_TIMEOUT_SECONDS * 1000,
): Promise<TSendResult> => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string, statusCode: number | null = null, responseBody = null) => ({
    statusCode,
    durationMs: elapsed(),
    error,
    responseBody,
    isSuccess: false,
  });
  const problem = urlProblem(message.url, rules);
  if (problem !== undefined) {
    return failure(`refused: the address ${problem}`);
  }
  const url = new URL(message.url);
  const timestamp = Math.floor(Date.now() / 1000);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<TSendResult>((resolve) => {
    let isSettled = false;
    const settle = (result: TSendResult) => {
      if (!isSettled) {
        isSettled = true;
        clearTimeout(timer);
        resolve(result);
      }
    };
    const outgoing = request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: checkedLookup(rules),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'pets-webhooks/1',
          'webhook-id': message.messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatures(
            message.secrets,
            message.messageId,
            timestamp,
            message.body,
          ),
        },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          if (length < WEBHOOK_RESPONSE_BODY_MAX_BYTES) {
            chunks.push(chunk);
          }
          length += chunk.length;
          if (length > READ_LIMIT_BYTES) {
            response.destroy();
          }
        });
        const finish = () => {
          const statusCode = response.statusCode ?? null;
          const responseBody = Buffer.concat(chunks).toString('utf8');
          const isSuccess = statusCode !== null && statusCode >= 200 && statusCode < 300;
          settle({
            statusCode,
            durationMs: elapsed(),
            error: isSuccess
              ? null
              : statusCode !== null && statusCode >= 300 && statusCode < 400
                ? `redirect not followed: the receiver answered ${statusCode}`
                : `the receiver answered ${statusCode}, not 2xx`,
            responseBody,
            isSuccess,
          });
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy();
      settle(failure(`timed out after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      settle(
        failure(
          error instanceof RefusedAddressError
            ? error.message
            : `could not deliver: ${error.code ?? error.message}`,
        ),
      );
    });
    outgoing.end(message.body);
  });
};
