import { SEED_CATALOGUE } from '@pets/db';
import { describe, expect, it } from 'vitest';
import { categoryLook, FALLBACK_LOOK, ILLUSTRATIONS } from './category-look';

/** WCAG 2.x relative luminance and contrast ratio of two #rrggbb colours. */
const luminance = (hex: string): number => {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.039_28 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

describe('categoryLook', () => {
  const demoCategories = Object.keys(SEED_CATALOGUE);

  it('gives every category of the demo store its own drawing, none of them the fallback', () => {
    const drawings = demoCategories.map((name) => categoryLook(name).illustration);
    expect(drawings).not.toContain(FALLBACK_LOOK.illustration);
    expect(new Set(drawings).size).toBe(demoCategories.length);
  });

  it('reads kinds from the name, whatever its case or plural', () => {
    expect(categoryLook('Ferrets').illustration).toBe('ferret');
    expect(categoryLook('guinea pig').illustration).toBe('guinea-pig');
    expect(categoryLook('Guinea Pigs').illustration).toBe('guinea-pig');
    expect(categoryLook('Hamsters').illustration).toBe('hamster');
    expect(categoryLook('Puppies').illustration).toBe('dog');
    expect(categoryLook('Kittens').illustration).toBe('cat');
    expect(categoryLook('Tortoises').illustration).toBe('tortoise');
    expect(categoryLook('Budgies').illustration).toBe('bird');
  });

  it('does not mistake a word that merely contains a kind', () => {
    expect(categoryLook('Alpacas').illustration).toBe('paw');
    expect(categoryLook('Hedgehogs').illustration).toBe('paw');
    expect(categoryLook('Pirates').illustration).toBe('paw');
  });

  it('falls back to the paw print for an unknown or missing category', () => {
    expect(categoryLook('Axolotls')).toEqual(FALLBACK_LOOK);
    expect(categoryLook(undefined)).toEqual(FALLBACK_LOOK);
    expect(categoryLook('')).toEqual(FALLBACK_LOOK);
  });

  it("draws every kind in an ink that reads on its tile (WCAG's 3:1 for graphics, and more)", () => {
    const looks = [...demoCategories.map(categoryLook), FALLBACK_LOOK];
    for (const look of looks) {
      expect(contrast(look.ink, look.tint), look.illustration).toBeGreaterThanOrEqual(4.5);
    }
    expect(new Set(looks.map((look) => look.illustration))).toEqual(new Set(ILLUSTRATIONS));
  });
});
