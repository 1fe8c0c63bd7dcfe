import { describe, expect, it } from 'vitest';
import { mediaUrl } from './media-url';

describe('mediaUrl', () => {
  it('joins the base address and the key with one slash', () => {
    expect(mediaUrl('http://localhost:4000/media', 'pets/42/ab12-480.webp')).toBe(
      'http://localhost:4000/media/pets/42/ab12-480.webp',
    );
    expect(mediaUrl('https://cdn.example/', 'a.webp')).toBe('https://cdn.example/a.webp');
  });

  it('keeps every key inside the base address', () => {
    const url = new URL(mediaUrl('https://cdn.example/m', 'x?y#z/é'));
    expect(url.pathname).toBe('/m/x%3Fy%23z/%C3%A9');
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    for (const key of ['../x', 'a/./b', '/etc/passwd', 'a//b', '']) {
      expect(() => mediaUrl('https://cdn.example/m', key)).toThrow(/not a storage key/);
    }
  });
});
