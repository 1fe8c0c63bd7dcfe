/**
 * Query parameters whose value is a secret, compared without case, `-` written as `_`, and any
 * `[...]` suffix dropped (`API-Key`, `api_key[]`). Names ending in `_token`, `_secret`, `_key` or
 * `_password` count too (`refresh_token`, `client_secret`).
 */
const SECRET_PARAMETERS = new Set([
  'api_key',
  'apikey',
  'key',
  'token',
  'access_token',
  'auth',
  'authorization',
  'bearer',
  'password',
  'passwd',
  'pwd',
  'secret',
  'signature',
  'sig',
  'session',
  'sessionid',
  'jwt',
  'credential',
  'credentials',
]);
const SECRET_SUFFIX = /_(token|secret|key|password)$/;

/** An API key of ours anywhere in the address (a path, a bare parameter): pets_live_..., pets_test_... */
const API_KEY_PATTERN = /pets_(?:live|test)_[A-Za-z0-9]+/g;

export const REDACTED = '[redacted]';

const normalName = (raw: string): string => {
  let name = raw;
  if (name.includes('%') || name.includes('+')) {
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // Not valid percent-encoding: compare it as written.
    }
  }
  name = name.trim().toLowerCase().replace(/-/g, '_');
  const bracket = name.indexOf('[');
  return bracket === -1 ? name : name.slice(0, bracket);
};

const isSecretParameter = (raw: string): boolean => {
  const name = normalName(raw);
  return SECRET_PARAMETERS.has(name) || SECRET_SUFFIX.test(name);
};

/**
 * A request's address as logged: the value of every secret-bearing query parameter replaced by
 * `[redacted]`, and any API key of ours wherever it appears. Free for the usual address, which has
 * neither a `?` nor `pets_`: one scan each, no parsing, no allocation.
 */
export const redactUrl = (url: string): string => {
  let logged = url.includes('pets_') ? url.replace(API_KEY_PATTERN, REDACTED) : url;
  const queryStart = logged.indexOf('?');
  if (queryStart === -1) {
    return logged;
  }
  const parameters = logged.slice(queryStart + 1).split('&');
  let changed = false;
  for (let index = 0; index < parameters.length; index += 1) {
    const parameter = parameters[index] as string;
    const equals = parameter.indexOf('=');
    const name = equals === -1 ? parameter : parameter.slice(0, equals);
    if (equals !== -1 && isSecretParameter(name)) {
      parameters[index] = `${name}=${REDACTED}`;
      changed = true;
    }
  }
  if (changed) {
    logged = `${logged.slice(0, queryStart + 1)}${parameters.join('&')}`;
  }
  return logged;
};
