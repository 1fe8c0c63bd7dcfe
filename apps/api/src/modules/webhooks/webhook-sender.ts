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
  ['::', 96], // unspecified, loopback (::1) and IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64: where the IPv4 address sits is the network's choice
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

/** The eight 16-bit groups of an IPv6 literal (zone dropped), or undefined for anything else. */
const ipv6Groups = (address: string): number[] | undefined => {
  const text = address.split('%')[0] ?? '';
  if (isIP(text) !== 6) {
    return undefined;
  }
  // A trailing dotted quad (`::ffff:127.0.0.1`) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  const hex = dotted
    ? `${text.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : text;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
};

/**
 * The IPv4 address an IPv6 address stands for, where the whole of a range maps onto IPv4:
 * IPv4-mapped (`::ffff:0:0/96`, which a dual-stack socket connects to over IPv4), IPv4-translated
 * (`::ffff:0:0:0/96`, SIIT) and the well-known NAT64 prefix (`64:ff9b::/96`). Judged by the IPv4
 * address it reaches, whichever way it is written.
 */
const mappedIpv4 = (address: string): string | undefined => {
  const groups = ipv6Groups(address);
  if (!groups) {
    return undefined;
  }
  const [a, b, c, d, e, f, high = 0, low = 0] = groups;
  const isMapped = a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff;
  const isTranslated = a === 0 && b === 0 && c === 0 && d === 0 && e === 0xffff && f === 0;
  const isNat64 = a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0;
  if (!isMapped && !isTranslated && !isNat64) {
    return undefined;
  }
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/** Whether `address` (an IP literal) is on the public Internet. */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address);
  if (family === 4) {
    return !NON_PUBLIC.check(address, 'ipv4');
  }
  const bare = address.split('%')[0] ?? address;
  if (isIP(bare) !== 6) {
    return false;
  }
  const ipv4 = mappedIpv4(bare);
  if (ipv4 !== undefined) {
    return isPublicAddress(ipv4);
  }
  return !NON_PUBLIC.check(bare, 'ipv6');
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

/** A name refused for what it resolves to; its message is for the server's log only. */
export class RefusedAddressError extends Error {}

/**
 * What the endpoint's owner reads whenever no connection was made: an address refused (a literal
 * one, or a name resolving to a non-public address), a name that does not resolve, a connection
 * refused or never established. One wording for all, so that an attempt cannot be used to learn
 * what a name resolves to, or whether it exists, on the API's network; the detail is logged.
 */
export const NOT_REACHABLE = 'the address is not allowed or not reachable';

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
  /** From the start of the attempt; 0 when no connection was made (its length would tell too). */
  durationMs: number;
  /** What the owner reads (the attempt's `error`); null on success. */
  error: string | null;
  /** Why, in full, for the server's log only (never stored or answered); null on success. */
  reason: string | null;
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

/** Sends one attempt; never throws: a failure is the result's `error` (and `reason`). */
export const sendWebhook = async (
  message: TWebhookMessage,
  rules: TAddressRules,
  timeoutMs = WEBHOOK_TIMEOUT_SECONDS * 1000,
): Promise<TSendResult> => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const notReachable = (reason: string): TSendResult => ({
    statusCode: null,
    durationMs: 0,
    error: NOT_REACHABLE,
    reason,
    responseBody: null,
    isSuccess: false,
  });
  const problem = urlProblem(message.url, rules);
  if (problem !== undefined) {
    return notReachable(`refused: the address ${problem}`);
  }
  const url = new URL(message.url);
  const timestamp = Math.floor(Date.now() / 1000);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<TSendResult>((resolve) => {
    let isSettled = false;
    let isConnected = false;
    const settle = (result: TSendResult) => {
      if (!isSettled) {
        isSettled = true;
        clearTimeout(timer);
        resolve(result);
      }
    };
    const failure = (error: string): TSendResult => ({
      statusCode: null,
      durationMs: elapsed(),
      error,
      reason: error,
      responseBody: null,
      isSuccess: false,
    });
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
          const error = isSuccess
            ? null
            : statusCode !== null && statusCode >= 300 && statusCode < 400
              ? `redirect not followed: the receiver answered ${statusCode}`
              : `the receiver answered ${statusCode}, not 2xx`;
          settle({
            statusCode,
            durationMs: elapsed(),
            error,
            reason: error,
            responseBody,
            isSuccess,
          });
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    outgoing.on('socket', (socket) => {
      socket.once('connect', () => {
        isConnected = true;
      });
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      settle(
        isConnected
          ? failure(`timed out after ${timeoutMs / 1000} s`)
          : notReachable(`no connection within ${timeoutMs / 1000} s`),
      );
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!isConnected) {
        settle(
          notReachable(
            error instanceof RefusedAddressError
              ? error.message
              : `could not connect: ${error.code ?? error.message}`,
          ),
        );
        return;
      }
      settle(failure(`could not deliver: ${error.code ?? error.message}`));
    });
    outgoing.end(message.body);
  });
};
