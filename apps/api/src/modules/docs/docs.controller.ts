import { Controller, Get, Headers, HttpCode, Inject } from '@nestjs/common';
import { buildOpenApiDocument } from '@pets/contract';
import { Access } from '../../admission/route';
import { CONFIG } from '../../app.tokens';
import type { TConfig } from '../../config';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import {
  DOCS_BUNDLE_PATH,
  DOCS_DOCUMENT_PATH,
  DOCS_INIT_PATH,
  DOCS_PATH,
  OPENAPI_PATH,
} from '../../http/routes';
import {
  docsInitScript,
  loadScalarBundle,
  referenceDocumentAsset,
  renderDocsPage,
  type TStaticAsset,
} from './docs-page';

/**
 * A script of the page, gzipped when the client takes it. The page names it with its content
 * hash (`?v=`), so caches may keep it for good.
 */
const sendAsset = (
  asset: TStaticAsset,
  acceptEncoding: string | undefined,
  setHeader: TSetHeader,
): Buffer => {
  setHeader('content-type', asset.contentType);
  setHeader('cache-control', 'public, max-age=31536000, immutable');
  setHeader('vary', 'accept-encoding');
  if (/\bgzip\b/.test(acceptEncoding ?? '')) {
    setHeader('content-encoding', 'gzip');
    return asset.gzipped;
  }
  return asset.body;
};

/**
 * Documentation for the people who use the API: the OpenAPI document of the contract with this
 * API's own public address first ("This server (production)") and the other environment's, and an
 * interactive reference (Scalar) whose scripts are served from here, never from a CDN.
 */
@Controller()
export class DocsController {
  private readonly document: string;
  private bundle: TStaticAsset | undefined;
  private readonly initScript = docsInitScript();
  /** The document as the reference page reads it (docs-page.ts, referenceDocument). */
  private readonly referenceDocument: TStaticAsset;

  constructor(@Inject(CONFIG) private readonly config: TConfig) {
    const document = buildOpenApiDocument({
      productionUrl: config.PUBLIC_BASE_URL_PRODUCTION,
      stagingUrl: config.PUBLIC_BASE_URL_STAGING,
      // Absolute and named: generated clients work without configuration, and
      // the first server says which environment this is.
      thisServerEnvironment: config.APP_ENV,
    });
    this.document = JSON.stringify(document);
    this.referenceDocument = referenceDocumentAsset(document);
  }

  /** Read (4 MB) and compressed on first use, not at every start. */
  private scalar(): TStaticAsset {
    this.bundle ??= loadScalarBundle();
    return this.bundle;
  }

  /**
   * Browsers ask every site for /favicon.ico, the /docs page included. The API has no icon of its
   * own: 204, cacheable for a day, without a key, rather than a 404 error logged at every visit.
   */
  @Access('public')
  @Get('favicon.ico')
  @HttpCode(204)
  favicon(@ResponseHeaders() setHeader: TSetHeader): void {
    setHeader('cache-control', 'public, max-age=86400');
  }

  @Access('keyless')
  @Get(OPENAPI_PATH)
  openApi(@ResponseHeaders() setHeader: TSetHeader): string {
    setHeader('content-type', 'application/json; charset=utf-8');
    return this.document;
  }

  @Access('public')
  @Get(DOCS_PATH)
  page(@ResponseHeaders() setHeader: TSetHeader): string {
    const { html, contentSecurityPolicy } = renderDocsPage(
      {
        productionUrl: this.config.PUBLIC_BASE_URL_PRODUCTION,
        stagingUrl: this.config.PUBLIC_BASE_URL_STAGING,
      },
      {
        bundle: this.scalar().version,
        init: this.initScript.version,
        document: this.referenceDocument.version,
      },
    );
    setHeader('content-type', 'text/html; charset=utf-8');
    setHeader('content-security-policy', contentSecurityPolicy);
    return html;
  }

  @Access('public')
  @Get(DOCS_BUNDLE_PATH)
  scalarBundle(
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @ResponseHeaders() setHeader: TSetHeader,
  ): Buffer {
    return sendAsset(this.scalar(), acceptEncoding, setHeader);
  }

  @Access('public')
  @Get(DOCS_INIT_PATH)
  initialisation(
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @ResponseHeaders() setHeader: TSetHeader,
  ): Buffer {
    return sendAsset(this.initScript, acceptEncoding, setHeader);
  }

  @Access('public')
  @Get(DOCS_DOCUMENT_PATH)
  pageDocument(
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @ResponseHeaders() setHeader: TSetHeader,
  ): Buffer {
    return sendAsset(this.referenceDocument, acceptEncoding, setHeader);
  }
}
