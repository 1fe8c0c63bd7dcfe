import sharp from 'sharp';
import { thumbHashToRGBA } from 'thumbhash';
import { describe, expect, it } from 'vitest';
import {
  detectImageFormat,
  ImageRejected,
  processImage,
  type TPipelineOptions,
  targetWidths,
} from './image-pipeline';
import {
  brokenJpeg,
  exifOf,
  GIF_BYTES,
  HTML_BYTES,
  PDF_BYTES,
  phoneJpeg,
  pixelAt,
  plainPng,
  plainWebp,
  pngBomb,
  SVG_BYTES,
} from './photos.test-support';

const OPTIONS: TPipelineOptions = {
  widths: [160, 480, 1200],
  maxPixels: 40_000_000,
  keyPrefix: 'pets/42',
};

const rejectionOf = async (bytes: Buffer) => {
  try {
    await processImage(bytes, OPTIONS);
  } catch (error) {
    if (error instanceof ImageRejected) {
      return error.rejection.reason;
    }
    throw error;
  }
  return 'accepted';
};

describe('the image pipeline (sharp, on this machine)', () => {
  it('tells JPEG, PNG and WebP from their bytes, and nothing else', async () => {
    expect(detectImageFormat(await phoneJpeg(40, 30))).toBe('jpeg');
    expect(detectImageFormat(await plainPng(40, 30))).toBe('png');
    expect(detectImageFormat(await plainWebp(40, 30))).toBe('webp');
    for (const other of [GIF_BYTES, PDF_BYTES, SVG_BYTES, HTML_BYTES, Buffer.alloc(0)]) {
      expect(detectImageFormat(other)).toBeUndefined();
    }
  });

  it('makes each width below the original and the original width, never upscaling', () => {
    expect(targetWidths([160, 480, 1200], 4000)).toEqual([160, 480, 1200]);
    expect(targetWidths([160, 480, 1200], 1200)).toEqual([160, 480, 1200]);
    expect(targetWidths([160, 480, 1200], 300)).toEqual([160, 300]);
    expect(targetWidths([160, 480, 1200], 160)).toEqual([160]);
    expect(targetWidths([160, 480, 1200], 90)).toEqual([90]);
  });

  it('turns a phone picture upright and keeps none of its metadata (no GPS)', async () => {
    const upload = await phoneJpeg(1600, 1000);
    expect((await exifOf(upload))?.GPSInfo?.GPSLatitude).toEqual([48, 51, 24]);

    const photo = await processImage(upload, OPTIONS);

    // Orientation 6: the stored 1600×1000 is shown 1000×1600, the red half on top.
    expect(photo.files.map((file) => [file.width, file.height])).toEqual([
      [160, 256],
      [480, 768],
      [1000, 1600],
    ]);
    expect([photo.width, photo.height]).toEqual([1000, 1600]);
    const largest = photo.files[2]?.bytes ?? Buffer.alloc(0);
    const [top] = await pixelAt(largest, 500, 100);
    const [bottom] = await pixelAt(largest, 500, 1500);
    expect(top).toBeGreaterThan(150);
    expect(bottom).toBeLessThan(100);
    for (const file of photo.files) {
      const metadata = await sharp(file.bytes).metadata();
      expect(metadata.format).toBe('webp');
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
      expect(file.bytes.includes(Buffer.from('PhoneCo'))).toBe(false);
      expect(file.key).toMatch(new RegExp(`^pets/42/[0-9a-f]{16}-${file.width}\\.webp$`));
    }
  });

  it('gives a ThumbHash placeholder of the photo', async () => {
    const photo = await processImage(await plainPng(800, 600), OPTIONS);
    const decoded = thumbHashToRGBA(Buffer.from(photo.placeholder, 'base64'));
    expect(decoded.w / decoded.h).toBeCloseTo(800 / 600, 0);
    // The plain green picture's placeholder is green.
    expect(decoded.rgba[1]).toBeGreaterThan(decoded.rgba[0] ?? 255);
    expect(photo.placeholder.length).toBeLessThanOrEqual(48);
  });

  it('names files by content and upload: the same picture twice shares no file', async () => {
    const upload = await plainWebp(500, 400);
    const first = await processImage(upload, OPTIONS);
    const second = await processImage(upload, OPTIONS);
    expect(first.files.map((file) => file.width)).toEqual([160, 480, 500]);
    const keys = new Set(first.files.map((file) => file.key));
    expect(second.files.some((file) => keys.has(file.key))).toBe(false);
  });

  it('refuses a file cut short from its structure, before decoding', async () => {
    const big = await sharp({
      create: { width: 6000, height: 6000, channels: 3, background: { r: 90, g: 140, b: 60 } },
    })
      .jpeg()
      .toBuffer();
    const startedAt = performance.now();
    expect(await rejectionOf(big.subarray(0, 1024))).toBe('unreadable');
    // The same 1 KB with an end marker forged on: libjpeg would only warn, and paint it grey.
    const forged = Buffer.concat([big.subarray(0, 1024), Buffer.from([0xff, 0xd9])]);
    expect(await rejectionOf(forged)).toBe('unreadable');
    expect(performance.now() - startedAt).toBeLessThan(200);
    const png = await plainPng(300, 200);
    expect(await rejectionOf(png.subarray(0, png.length - 20))).toBe('unreadable');
    const webp = await plainWebp(300, 200);
    expect(await rejectionOf(webp.subarray(0, webp.length - 10))).toBe('unreadable');
    // Bytes after the end (some cameras add them) are no damage.
    const jpeg = await phoneJpeg(400, 300);
    const padded = Buffer.concat([jpeg, Buffer.alloc(64, 0)]);
    expect((await processImage(padded, OPTIONS)).files.length).toBeGreaterThan(0);
  });

  it('refuses impostors, broken files and pixel bombs', async () => {
    expect(await rejectionOf(GIF_BYTES)).toBe('unsupported_type');
    expect(await rejectionOf(SVG_BYTES)).toBe('unsupported_type');
    expect(await rejectionOf(PDF_BYTES)).toBe('unsupported_type');
    expect(await rejectionOf(await brokenJpeg())).toBe('unreadable');
    // A PNG signature in front of something else.
    const fake = Buffer.concat([(await plainPng(8, 8)).subarray(0, 8), HTML_BYTES]);
    expect(await rejectionOf(fake)).toBe('unreadable');
    const bomb = await pngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(1024);
    expect(await rejectionOf(bomb)).toBe('too_many_pixels');
  });
});
