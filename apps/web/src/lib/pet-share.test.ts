import { describe, expect, it } from 'vitest';
import { jsonForScript, petStructuredData, shareDescription, sharePhoto } from './pet-share';

const pet = {
  name: 'Biscuit',
  age: 'young',
  sex: 'female',
  size: 'medium',
  status: 'available',
  description: 'Biscuit loves long walks. She is shy at first.\n\nShe came in March.',
} as const;

const size = (width: number) => ({
  url: `https://media.example/${width}.webp`,
  width,
  height: Math.round(width * 0.75),
});

describe('sharing an animal', () => {
  it('describes the animal in one phrase, where it stands, and the first sentence of its story', () => {
    expect(shareDescription(pet, 'Dogs', 'Kindred Paws')).toBe(
      'Young female medium dog looking for a home at Kindred Paws. Biscuit loves long walks.',
    );
    expect(
      shareDescription(
        { ...pet, age: null, sex: 'unknown', size: null, status: 'sold', description: null },
        undefined,
        'Kindred Paws',
      ),
    ).toBe('Animal adopted from Kindred Paws.');
  });

  it('keeps a long story to a preview length, cut at a word', () => {
    const long = shareDescription(
      { ...pet, description: `${'Very '.repeat(80)}long.` },
      'Cats',
      'Kindred Paws',
    );
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith('Very…')).toBe(true);
  });

  it('picks the widest photo file up to 1200 px, else none', () => {
    const photo = { sizes: [size(1600), size(160), size(480)] };
    expect(sharePhoto({ photos: [photo] } as never)?.width).toBe(480);
    expect(sharePhoto({ photos: [{ sizes: [size(1600)] }] } as never)?.width).toBe(1600);
    expect(sharePhoto({ photos: [] })).toBeUndefined();
  });

  it('writes structured data no text can break out of', () => {
    const data = petStructuredData({
      pet: { id: 42, name: '</script><script>alert(1)</script>' },
      url: 'https://pets.example/pets/42',
      description: 'x',
      imageUrl: 'https://pets.example/pets/42/preview-image',
      storeName: 'Kindred Paws',
    });
    const json = jsonForScript(data);
    expect(json).not.toContain('<');
    expect(JSON.parse(json).mainEntity.name).toBe('</script><script>alert(1)</script>');
    expect(JSON.parse(json).publisher['@type']).toBe('AnimalShelter');
  });
});
