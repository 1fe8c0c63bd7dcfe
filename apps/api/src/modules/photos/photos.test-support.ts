import { crc32 } from 'node:zlib';
import exifReader from 'exif-reader';
import sharp from 'sharp';

/**
 * Images made at test time (no photo from elsewhere is committed): a phone-like JPEG that carries
 * a GPS position, a camera and an orientation, a PNG that claims far more pixels than it has, and
 * a few impostors.
 */

/** Where the test "phone" was: a position that must never reach a stored file. */
export const GPS_POSITION = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '48/1 51/1 2400/100',
  GPSLongitudeRef: 'E',
  GPSLongitude: '2/1 21/1 0/1',
};

/**
 * A JPEG `width`×`height` as stored by a phone held sideways: EXIF orientation 6 (shown rotated
 * 90° clockwise, so upright it is `height`×`width`), a camera make and a GPS position. The left
 * half is red and the right half blue, so a test can tell which way it was turned.
 */
export const phoneJpeg = async (width = 1600, height = 1000): Promise<Buffer> => {
  const half = Math.floor(width / 2);
  const blue = await sharp({
    create: { width: width - half, height, channels: 3, background: { r: 20, g: 40, b: 220 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 3, background: { r: 220, g: 30, b: 30 } },
  })
    .composite([{ input: blue, left: half, top: 0 }])
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Pocket 9' }, IFD3: GPS_POSITION })
    .withMetadata({ orientation: 6 })
    .toBuffer();
};

export const plainPng = (width = 800, height = 600): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 4, background: { r: 40, g: 160, b: 90, alpha: 1 } } })
    .png()
    .toBuffer();

export const plainWebp = (width = 640, height = 480): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 240, g: 200, b: 60 } } })
    .webp()
    .toBuffer();

/**
 * A pixel bomb: a valid, tiny PNG whose header claims `width`×`height` pixels (its IHDR rewritten,
 * with a correct checksum, so only the size is a lie).
 */
export const pngBomb = async (width = 100_000, height = 100_000): Promise<Buffer> => {
  const png = Buffer.from(await plainPng(8, 8));
  // Signature (8), IHDR length (4), "IHDR" (4), then width and height; the CRC covers type + data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
};

export const GIF_BYTES = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64',
);
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
export const SVG_BYTES = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);
export const HTML_BYTES = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');

/** A JPEG cut after its first third: the signature is right, the data is not all there. */
export const brokenJpeg = async (): Promise<Buffer> => {
  const whole = await phoneJpeg(400, 300);
  return whole.subarray(0, Math.floor(whole.length / 3));
};

/** The EXIF of a stored file, read back; undefined when it has none. */
export const exifOf = async (bytes: Buffer): Promise<ReturnType<typeof exifReader> | undefined> => {
  const { exif } = await sharp(bytes).metadata();
  return exif ? exifReader(exif) : undefined;
};

/** The colour of a pixel of an image, as [r, g, b]. */
export const pixelAt = async (bytes: Buffer, x: number, y: number): Promise<number[]> => {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [data[offset] ?? -1, data[offset + 1] ?? -1, data[offset + 2] ?? -1];
};
