import { Controller, Get, Inject, Param, StreamableFile } from '@nestjs/common';
import { Access } from '../../admission/route';
import { AppError } from '../../core/app-error';
import { ResponseHeaders, type TSetHeader } from '../../http/response-headers.decorator';
import { MEDIA_CACHE_CONTROL, MEDIA_STORE, type TMediaStore } from '../photos/media-store';

/** Where the API serves the local store's files: `MEDIA_BASE_URL`'s default points here. */
export const MEDIA_PATH = 'media';

const notFound = () => new AppError('not_found', 'There is no such file.');

/**
 * The photo files of the local store (DATA_DIR/media), outside /v1 and without a key: they are
 * the public pictures of public animals, shown by `<img>` on the site and in partners' pages,
 * which cannot send a key; with S3 the same files are served by the bucket or its CDN, also
 * without one. Each file is written once under a name that changes with its content, so it is
 * cached for a year as immutable. Only keys the API writes are read (MEDIA_KEY_PATTERN): no
 * path reaches the disk from the address as given.
 */
@Controller(MEDIA_PATH)
export class MediaController {
  constructor(@Inject(MEDIA_STORE) private readonly store: TMediaStore) {}

  @Access('public')
  @Get('pets/:petId/:file')
  async file(
    @Param('petId') petId: string,
    @Param('file') file: string,
    @ResponseHeaders() setHeader: TSetHeader,
  ): Promise<StreamableFile> {
    const found = await this.store.read?.(`pets/${petId}/${file}`);
    if (!found) {
      throw notFound();
    }
    setHeader('cache-control', MEDIA_CACHE_CONTROL);
    // Every other answer is `same-origin`; photos are meant to be shown on the site and on
    // partners' pages, which are other origins.
    setHeader('cross-origin-resource-policy', 'cross-origin');
    // The files are images and nothing else: the CSP of every response (default-src 'none') and
    // nosniff stay, so even a file that were not an image could not run in a browser.
    setHeader('content-type', found.contentType);
    setHeader('content-length', String(found.size));
    return new StreamableFile(found.stream);
  }
}
