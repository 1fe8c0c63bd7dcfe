import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BEARER_SECURITY_SCHEME,
  type buildOpenApiDocument,
  THIS_SERVER_URL,
  type TOpenApiServers,
} from '@pets/contract';
import {
  DOCS_BUNDLE_PATH,
  DOCS_DOCUMENT_PATH,
  DOCS_INIT_PATH,
  OPENAPI_PATH,
} from '../../http/routes';

/** Where the page and its scripts are served. */

export type TStaticAsset = {
  body: Buffer;
  gzipped: Buffer;
  /** Content hash, put in the URL of the asset so it can be cached for good. */
  version: string;
  contentType: string;
};

const asset = (body: Buffer, contentType: string): TStaticAsset => ({
  body,
  gzipped: gzipSync(body),
  version: createHash('sha256').update(body).digest('base64url').slice(0, 16),
  contentType,
});

/** dist/assets/, where `build` copies the bundle (scripts/copy-docs-assets.cjs). */
const BUILT_BUNDLE = join(__dirname, '..', '..', 'assets', 'scalar-standalone.js');

/**
 * Scalar's standalone browser bundle, from the installed @scalar/api-reference package: the page
 * never loads anything from a CDN. The build copies it into dist/assets (the production image
 * ships only that file); running from the sources, it is read from the package itself.
 */
export const scalarBundlePath = (): string => {
  if (existsSync(BUILT_BUNDLE)) {
    return BUILT_BUNDLE;
  }
  // The package's exports map only names its ESM entry (dist/index.js); the bundle sits beside it.
  const entry = createRequire(__filename).resolve('@scalar/api-reference');
  return join(dirname(entry), 'browser', 'standalone.js');
};

export const loadScalarBundle = (): TStaticAsset =>
  asset(readFileSync(scalarBundlePath()), 'text/javascript; charset=utf-8');

/**
 * Starts the reference with the configuration the page carries as inert JSON, so that the page
 * needs no inline script and its CSP can be `script-src 'self'`.
 *
 * The developer portal's "Try it" opens `/docs#try-key=<key>` with a test, read-only key that
 * expires within the hour: the fragment never reaches a server or a log. The script hands the key
 * to Scalar as the bearer token of every "try it" request, then takes it out of the address bar
 * and the history before the reference (which keeps its own place in the fragment) starts.
 */
const INIT_SCRIPT = `(() => {
  const element = document.getElementById('docs-config');
  const config = JSON.parse(element ? element.textContent : '{}');
  const match = /^#try-key=([A-Za-z0-9_]{1,200})$/.exec(window.location.hash);
  if (match) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    config.authentication = {
      preferredSecurityScheme: '${BEARER_SECURITY_SCHEME}',
      securitySchemes: { ${BEARER_SECURITY_SCHEME}: { token: match[1] } },
    };
  }
  window.Scalar.createApiReference('#reference', config);
})();
`;

export const docsInitScript = (): TStaticAsset =>
  asset(Buffer.from(INIT_SCRIPT), 'text/javascript; charset=utf-8');

type TOpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/**
 * Scalar's own mark (`x-disabled`) on an example: shown unticked, not sent. Without a value, so
 * the parameter's field is empty too. Named `default`: the example Scalar looks for first (under
 * another name it was passed over on an operation with a path parameter, and the enum's first
 * value sent instead).
 */
export const NOT_SENT_EXAMPLES = {
  default: { summary: 'Not sent: give a value to send it', 'x-disabled': true },
} as const;

/**
 * The document as the reference reads it: the published one (`/v1/openapi.json`), each optional
 * parameter marked with NOT_SENT_EXAMPLES. The published document gives an optional parameter no
 * example, but Scalar's try-it fills one from its enum's first value or its default and sends it
 * (List animals asked for `status=available&sex=male&age=baby...` and got `[]`): marked, every
 * try-it opens with only what the operation needs, and a reader ticks a filter to add it. The mark
 * is Scalar's, so it stays out of the document other tools read.
 */
export const referenceDocument = (document: TOpenApiDocument): TOpenApiDocument => {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, { parameters?: Record<string, unknown>[] }>).map(
          ([method, operation]) => [
            method,
            {
              ...operation,
              ...(operation.parameters && {
                parameters: operation.parameters.map((parameter) =>
                  parameter.required === true || parameter.in === 'path'
                    ? parameter
                    : { ...parameter, examples: NOT_SENT_EXAMPLES },
                ),
              }),
            },
          ],
        ),
      ),
    ]),
  );
  return { ...document, paths };
};

/** referenceDocument() as the page's asset: named by its hash, like the scripts. */
export const referenceDocumentAsset = (document: TOpenApiDocument): TStaticAsset =>
  asset(
    Buffer.from(JSON.stringify(referenceDocument(document))),
    'application/json; charset=utf-8',
  );

/**
 * Scalar's settings: the document of this API, and nothing that reaches another service (no
 * telemetry, no default web fonts, no request proxy, no AI agent or MCP).
 */
const scalarConfiguration = (servers: TOpenApiServers, documentVersion: string) => ({
  url: `${DOCS_DOCUMENT_PATH}?v=${documentVersion}`,
  // Try-it requests go to the server the page came from first, then the public addresses. The
  // document's paths are relative to these base addresses (`/v1` + `/pets`).
  servers: [
    { url: THIS_SERVER_URL, description: 'This server' },
    { url: servers.productionUrl, description: 'Production' },
    { url: servers.stagingUrl, description: 'Staging' },
  ],
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: '',
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  defaultOpenAllTags: true,
  metaData: { title: 'Pet Adoption API reference' },
});

/** JSON inside a <script> element: `<` escaped so no string in it can close the element. */
const inertJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const originOf = (url: string) => new URL(url).origin;

export type TDocsPage = { html: string; contentSecurityPolicy: string };

/**
 * The reference page and its CSP. Scripts: only this server's, no inline script, no eval (the
 * bundle probes for eval once, in a try/catch, and does without). Styles: the bundle and the
 * libraries in it add <style> elements and style attributes at run time, not all of them with
 * Scalar's nonce, so styles need 'unsafe-inline'. Connections: this server and the public
 * addresses, for "try it" requests; nothing else, so nothing leaks to third parties.
 */
export const renderDocsPage = (
  servers: TOpenApiServers,
  versions: { bundle: string; init: string; document: string },
): TDocsPage => {
  const connect = ["'self'", originOf(servers.productionUrl), originOf(servers.stagingUrl)];
  const contentSecurityPolicy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Pet Adoption API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <noscript>
      This interactive reference needs JavaScript. The OpenAPI document is at
      <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.
    </noscript>
    <div id="reference"></div>
    <script id="docs-config" type="application/json">${inertJson(scalarConfiguration(servers, versions.document))}</script>
    <script src="${DOCS_BUNDLE_PATH}?v=${versions.bundle}"></script>
    <script src="${DOCS_INIT_PATH}?v=${versions.init}"></script>
  </body>
</html>
`;
  return { html, contentSecurityPolicy };
};
