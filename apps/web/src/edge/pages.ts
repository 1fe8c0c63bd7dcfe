/**
 * The pages the edge answers itself, before Next.js: too many requests from one visitor (429), a
 * form posted from another site (403) and an address spelled to mean another path (400). Calm words in the site's colours, no scripts; their
 * one style block carries the response's nonce.
 */
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The store's name in the pages' titles: STORE_NAME, read once as the edge starts. */
export type TEdgePageStore = { name: string };

const page = (
  store: TEdgePageStore,
  nonce: string,
  title: string,
  heading: string,
  body: string,
): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(store.name)}</title>
<style nonce="${nonce}">
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#fbf8f4;color:#2b2521;line-height:1.5}
main{max-width:34rem;margin:12vh auto;padding:2rem;background:#fff;border-radius:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.6rem;margin:0 0 .75rem}a{color:#8a4b16;font-weight:600}
</style></head>
<body><main><h1>${escapeHtml(heading)}</h1>${body}</main></body></html>
`;

export const tooManyRequestsPage = (
  store: TEdgePageStore,
  nonce: string,
  seconds: number,
  retryPath: string,
): string =>
  page(
    store,
    nonce,
    'Please wait a moment',
    "We're getting a lot of visits",
    `<p>We're getting a lot of visits from your connection. Try again in ${seconds} ${
      seconds === 1 ? 'second' : 'seconds'
    }.</p><p><a href="${escapeHtml(retryPath)}">Try again</a></p>`,
  );

export const crossSitePostPage = (store: TEdgePageStore, nonce: string): string =>
  page(
    store,
    nonce,
    'Form not accepted',
    'This form came from another site',
    '<p>For your safety we only accept forms sent from our own pages. Nothing was changed.</p><p><a href="/">Go to the home page</a></p>',
  );

export const refusedAddressPage = (store: TEdgePageStore, nonce: string): string =>
  page(
    store,
    nonce,
    'Address not accepted',
    'We cannot open this address',
    '<p>Part of this address (such as <code>..</code> or an encoded dot) is not something our links ever contain, so we do not follow it. Check the link, or start again from the home page.</p><p><a href="/">Go to the home page</a></p>',
  );
