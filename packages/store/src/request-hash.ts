import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys sorted: the same data gives the same text, whatever the order.
 * Bytes (an uploaded photo, apps/api/src/http/upload-body.ts) stand as their SHA-256: walking a 10 MiB Buffer
 * as an object of ten million keys would take seconds and as much memory again.
 */
const canonical = (value: unknown): string => {
  if (value instanceof Uint8Array) {
    return `{"sha256":${JSON.stringify(createHash('sha256').update(value).digest('hex'))}}`;
  }
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/**
 * SHA-256 (hex) of the canonical request: the method, the route pattern, its path parameters and
 * the JSON body, keys sorted (an uploaded file: its bytes' SHA-256). A retry that sends the same data in another key order or spacing is
 * the same request; a different value anywhere is a different one (422 idempotency_key_reused).
 */
export const requestHash = (request: {
  method: string;
  route: string;
  params: unknown;
  body: unknown;
}): string =>
  createHash('sha256')
    .update(
      `${request.method}\n${request.route}\n${canonical(request.params ?? {})}\n${canonical(request.body ?? null)}`,
    )
    .digest('hex');
