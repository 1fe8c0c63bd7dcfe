/**
 * The public address of a stored photo file: `<base>/<key>`, where `base` is the configuration's
 * `mediaBaseUrl` (MEDIA_BASE_URL, or the API's own `/media`) and `key` the file's storage key
 * (`pets/42/<hash>-480.webp`, no leading slash). The one place a key becomes a URL: the pets
 * repository (every Pet's photos) and the photo upload use it, so the two cannot disagree. Each
 * segment of the key is percent-encoded; a key with an empty, `.` or `..` segment (which URL
 * parsers resolve, even percent-encoded) is a bug of ours, refused rather than given out.
 */
export const mediaUrl = (baseUrl: string, key: string): string => {
  const segments = key.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  }
  return `${baseUrl.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
};
