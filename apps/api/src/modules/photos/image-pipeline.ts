import { createHash, randomBytes } from 'node:crypto';
import type Sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';

/**
 * sharp (libvips) is loaded with the first upload, not at start: loaded at start it added ~35 MB
 * to the resident memory of every API process, most of which never receives a photo.
 */
let sharpLoaded: Promise<typeof Sharp> | undefined;
const loadSharp = (): Promise<typeof Sharp> => {
  sharpLoaded ??= import('sharp').then((module) => module.default);
  return sharpLoaded;
};

/** The image types an upload may be, as told by its first bytes. */
export type TImageFormat = 'jpeg' | 'png' | 'webp';

/**
 * The type of an image from its signature (the declared Content-Type is never trusted). Three
 * fixed signatures need no library: JPEG's SOI marker, PNG's eight-byte signature, and a RIFF
 * container whose form type is WEBP. Anything else (GIF, SVG, PDF, HTML, TIFF, HEIC...) is
 * undefined, even though sharp could decode some of them.
 */
export const detectImageFormat = (bytes: Uint8Array): TImageFormat | undefined => {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'jpeg';
  }
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((byte, index) => bytes[index] === byte)) {
    return 'png';
  }
  const ascii = (start: number, end: number) =>
    Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') {
    return 'webp';
  }
  return undefined;
};

const JPEG_EOI = Buffer.from([0xff, 0xd9]);
const JPEG_SOS = Buffer.from([0xff, 0xda]);
const PNG_IEND = Buffer.from('IEND', 'latin1');

/**
 * Whether the file is whole, from its structure alone, before any decoding: libjpeg
 * only warns about a JPEG cut short ("premature end") and fills the rest grey, which cost 0.57 s
 * of CPU on a 1 KB file claiming 6000×6000 and stored a grey photo. A JPEG must end its scan with
 * an EOI marker (inside entropy-coded data 0xFF is always followed by 0x00 or a restart marker, so
 * an FF D9 after the first SOS is the real end; bytes after it, which some cameras add, are
 * allowed); a PNG must have its IEND chunk; a WebP must hold as many bytes as its RIFF header says.
 */
export const isComplete = (bytes: Buffer, format: TImageFormat): boolean => {
  if (format === 'jpeg') {
    const scan = bytes.indexOf(JPEG_SOS);
    return scan > 0 && bytes.lastIndexOf(JPEG_EOI) > scan;
  }
  if (format === 'png') {
    return bytes.lastIndexOf(PNG_IEND) > 8;
  }
  return bytes.length >= 12 && bytes.readUInt32LE(4) + 8 <= bytes.length;
};

/**
 * Whether a JPEG holds enough coded data for the pixels its header claims. Huffman coding spends at
 * least one bit on every 8×8 block of the first component (its DC coefficient) even with the most
 * favourable tables; a file with fewer bytes after its first SOS than one bit per eight blocks
 * cannot be whole, however its end was forged (a 1 KB file claiming 6000×6000 with an EOI added:
 * libjpeg only warns and paints the missing rows grey, after 0.57 s of CPU). The margin (eight
 * times below the bound) keeps every real photograph far from it.
 */
export const hasPlausibleJpegData = (bytes: Buffer, width: number, height: number): boolean => {
  const scan = bytes.indexOf(JPEG_SOS);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  return scan > 0 && bytes.length - scan >= blocks / 64;
};

/** Why an upload could not be made into a photo; the service maps each to an error code. */
export type TImageRejection =
  | { reason: 'unsupported_type' }
  | { reason: 'too_many_pixels'; width: number; height: number }
  | { reason: 'unreadable' };

export class ImageRejected extends Error {
  constructor(readonly rejection: TImageRejection) {
    super(`image rejected: ${rejection.reason}`);
  }
}

/** One stored file of a photo: a WebP of the given size, no metadata, under a content-hashed key. */
export type TPhotoFile = {
  width: number;
  height: number;
  key: string;
  bytes: Buffer;
};

export type TProcessedPhoto = {
  /** Of the largest size (the upright original when it is narrower than the widest size). */
  width: number;
  height: number;
  /** ThumbHash of the photo, base64. */
  placeholder: string;
  /** Ascending by width. */
  files: TPhotoFile[];
};

export type TPipelineOptions = {
  /** Widths to make, ascending; a width over the original's is replaced by the original's. */
  widths: readonly number[];
  /** Most pixels (width × height) an image may declare; more is refused before decoding. */
  maxPixels: number;
  /** Folder of the keys, e.g. `pets/42`. */
  keyPrefix: string;
};

/** WebP quality of every size: visually clean at photo sizes, about a tenth of the JPEG's bytes. */
const WEBP_QUALITY = 80;

/** ThumbHash encodes images of at most 100×100 pixels. */
const THUMBHASH_MAX_SIDE = 100;

/**
 * The widths to make for an image `width` pixels wide: every configured width below it, then the
 * widest configured width or the image's own, whichever is smaller. Never upscaled, never two
 * files of one width: a 300 px image gives [160, 300], a 100 px one [100].
 */
export const targetWidths = (widths: readonly number[], width: number): number[] => {
  const below = widths.filter((candidate) => candidate < width);
  const widest = Math.min(width, widths[widths.length - 1] ?? width);
  return below.includes(widest) ? below : [...below, widest];
};

const decoderOptions = (maxPixels: number): Sharp.SharpOptions => ({
  // libvips checks this before decoding a single pixel: a small file that claims to be
  // 100000×100000 is refused from its header (a pixel bomb), not after allocating 40 GB. (The
  // pipeline checks the header itself first, to answer 413 rather than 400.)
  limitInputPixels: maxPixels,
  // Turned upright from the EXIF orientation, which is then dropped with the rest.
  autoOrient: true,
  // Corrupt or truncated data is an error, not a grey half-image. Not 'warning' (sharp's
  // default): libjpeg warns about harmless oddities common in phone pictures ("extraneous bytes
  // before marker"), which would refuse real photos.
  failOn: 'error',
  // An animated WebP is read as its first frame, like the still it will become.
  pages: 1,
});

/**
 * Turns an uploaded image into the stored sizes and the placeholder, once, at upload: checks the
 * type from the bytes and the pixel count from the header, turns it upright from its EXIF
 * orientation, then writes WebP files without any metadata (no EXIF, so no GPS position, no
 * camera serial, no XMP or ICC profile: sharp writes none unless asked, and colours are
 * converted to sRGB first). Throws ImageRejected for what the client sent wrong.
 */
export const processImage = async (
  bytes: Buffer,
  options: TPipelineOptions,
): Promise<TProcessedPhoto> => {
  const format = detectImageFormat(bytes);
  if (format === undefined) {
    throw new ImageRejected({ reason: 'unsupported_type' });
  }
  const sharp = await loadSharp();
  let metadata: Sharp.Metadata;
  try {
    // Header only: no pixels are decoded yet.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected({ reason: 'unreadable' });
  }
  // The signature and libvips must agree: a PNG signature glued in front of something else is
  // not a PNG.
  if (metadata.format !== format || !metadata.width || !metadata.height) {
    throw new ImageRejected({ reason: 'unreadable' });
  }
  if (metadata.width * metadata.height > options.maxPixels) {
    throw new ImageRejected({
      reason: 'too_many_pixels',
      width: metadata.width,
      height: metadata.height,
    });
  }
  // Cut short: refused from its structure, before decoding a pixel.
  if (
    !isComplete(bytes, format) ||
    (format === 'jpeg' && !hasPlausibleJpegData(bytes, metadata.width, metadata.height))
  ) {
    throw new ImageRejected({ reason: 'unreadable' });
  }
  try {
    // Each size is made from the upload itself rather than from one decoded copy: libvips then
    // decodes a large JPEG or WebP at a fraction of its size (shrink-on-load) and streams it,
    // instead of holding every pixel of a 40-megapixel image in memory at once.
    const { width: uprightWidth } = metadata.autoOrient;
    const uploadSalt = randomBytes(16);
    const files = await Promise.all(
      targetWidths(options.widths, uprightWidth).map(async (target): Promise<TPhotoFile> => {
        const { data, info } = await sharp(bytes, decoderOptions(options.maxPixels))
          .resize({ width: target, withoutEnlargement: true })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer({ resolveWithObject: true });
        return {
          width: info.width,
          height: info.height,
          key: `${options.keyPrefix}/${fileName(uploadSalt, data)}-${info.width}.webp`,
          bytes: data,
        };
      }),
    );
    const thumb = await sharp(bytes, decoderOptions(options.maxPixels))
      .resize({ width: THUMBHASH_MAX_SIDE, height: THUMBHASH_MAX_SIDE, fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const hash = rgbaToThumbHash(thumb.info.width, thumb.info.height, thumb.data);
    const largest = files[files.length - 1] as TPhotoFile;
    return {
      width: largest.width,
      height: largest.height,
      placeholder: Buffer.from(hash).toString('base64'),
      files,
    };
  } catch (error) {
    if (error instanceof ImageRejected) {
      throw error;
    }
    // libvips' own words stay out of the answer; whatever it could not decode is a broken file.
    throw new ImageRejected({ reason: 'unreadable' });
  }
};

/**
 * A file's name: 16 hex digits of SHA-256 over the upload's random salt and the file's bytes. It
 * changes whenever the content does (so the file can be cached as immutable), and two uploads of
 * the same picture never share a file, so deleting one photo can never remove another's files.
 */
const fileName = (uploadSalt: Buffer, data: Buffer): string =>
  createHash('sha256').update(uploadSalt).update(data).digest('hex').slice(0, 16);
