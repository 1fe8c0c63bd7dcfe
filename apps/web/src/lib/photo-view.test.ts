import { rgbaToThumbHash } from 'thumbhash';
import { describe, expect, it } from 'vitest';
import { photoView, placeholderDataUrl } from './photo-view';

/** A real ThumbHash of a small two-colour image, made here. */
const thumbHash = (): string => {
  const width = 8;
  const height = 6;
  const rgba = new Uint8Array(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    rgba.set(index % width < width / 2 ? [200, 120, 60, 255] : [60, 90, 160, 255], index * 4);
  }
  return Buffer.from(rgbaToThumbHash(width, height, rgba)).toString('base64');
};

const photo = {
  id: 7,
  width: 1200,
  height: 900,
  placeholder: thumbHash(),
  sizes: [
    { width: 1200, height: 900, url: 'https://media.example/p-1200.webp' },
    { width: 160, height: 120, url: 'https://media.example/p-160.webp' },
    { width: 480, height: 360, url: 'https://media.example/p-480.webp' },
  ],
};

describe('photoView', () => {
  it('lists every size for srcset, ascending, and picks src by the preferred width', () => {
    const view = photoView(photo, 480);
    expect(view.srcSet).toBe(
      'https://media.example/p-160.webp 160w, https://media.example/p-480.webp 480w, https://media.example/p-1200.webp 1200w',
    );
    expect(view.src).toBe('https://media.example/p-480.webp');
    expect(view.largestUrl).toBe('https://media.example/p-1200.webp');
    expect([view.width, view.height]).toEqual([1200, 900]);
    expect(photoView(photo, 2000).src).toBe('https://media.example/p-1200.webp');
  });

  it('works with the one size a small upload has', () => {
    const small = { ...photo, width: 120, height: 90, sizes: [photo.sizes[1] ?? photo.sizes[0]] };
    const view = photoView(small as typeof photo, 480);
    expect(view.src).toBe('https://media.example/p-160.webp');
    expect(view.srcSet).toBe('https://media.example/p-160.webp 160w');
  });

  it('decodes the ThumbHash into a PNG data URL on the server', () => {
    expect(photoView(photo, 480).placeholderUrl).toMatch(
      /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/,
    );
  });
});

describe('placeholderDataUrl', () => {
  it('is undefined for anything that is not a ThumbHash, rather than failing the page', () => {
    expect(placeholderDataUrl('')).toBeUndefined();
    expect(placeholderDataUrl('not base64!')).toBeUndefined();
    expect(placeholderDataUrl('AAAA')).toBeUndefined();
    expect(placeholderDataUrl('A'.repeat(200))).toBeUndefined();
  });
});
