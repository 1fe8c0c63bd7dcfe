/**
 * The public address of a stored photo file: `<base>/<key>`, where `base` is the configuration's
 * `mediaBaseUrl` (MEDIA_BASE_URL, or the API's own `/media`) and `key` the file's storage key
 * (`pets/42/<hash>-480.webp`, no leading slash). The one place a key becomes a URL: the pets
 * repository (every Pet's photos) and the photo upload use it, so the two cannot disagree. Each
 * segment of the key is percent-encoded; a key with an empty, `.` or `..` segment (which URL
 * parsers resolve, even percent-encoded) is a bug of ours, refused rather than given out.
 */
/**
 * A key of segments made of characters that encodeURIComponent leaves alone, none empty and none
 * starting with a dot (so neither `.` nor `..`).
 */
const PLAIN_KEY = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$/;

export const mediaUrl = (baseUrl: string, key: string): string => {
  const base = baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl;
  // Every key the API writes (`pets/42/<16 hex>-480.webp`): nothing to encode, no dot segment.
  // Joined as it is: the same address as below, without splitting and encoding each photo's
  // three keys on every list (a page of 20 animals with photos had 60).
  if (PLAIN_KEY.test(key)) {
    return `${base}/${key}`;
  }
  const segments = key.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  }
  return `${base}/${segments.map(encodeURIComponent).join('/')}`;
};
