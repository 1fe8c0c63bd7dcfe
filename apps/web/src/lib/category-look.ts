/**
 * How a category looks when an animal has no photo: which of the site's own drawings
 * (components/illustrations.tsx) and on which tinted tile. Matched on the category's name, so a new
 * category of a known kind ("Puppies", "Tortoises") looks right at once, and one of no known kind
 * gets the paw print. Every kind has its own drawing: no two categories of the demo store share one.
 */

export const ILLUSTRATIONS = [
  'dog',
  'cat',
  'rabbit',
  'bird',
  'guinea-pig',
  'hamster',
  'tortoise',
  'fish',
  'ferret',
  'paw',
] as const;
export type TIllustration = (typeof ILLUSTRATIONS)[number];

export type TCategoryLook = {
  illustration: TIllustration;
  /** The tile's background. */
  tint: string;
  /** The drawing's outline and shading; at least 4.5:1 on the tint. */
  ink: string;
};

/** Most specific first: "guinea pig" must not be read as a pig or a rodent in general. */
const LOOKS: readonly [RegExp, TCategoryLook][] = [
  [/guinea|\bcav(y|ies)\b/i, { illustration: 'guinea-pig', tint: '#f6ecdc', ink: '#6e4a1d' }],
  [
    /hamster|gerbil|\bmouse|\bmice\b|\brats?\b|rodent/i,
    { illustration: 'hamster', tint: '#f6f0d8', ink: '#65551a' },
  ],
  [/ferret|polecat/i, { illustration: 'ferret', tint: '#f3e7e1', ink: '#6b3b2e' }],
  [/\bdogs?\b|pupp|canine/i, { illustration: 'dog', tint: '#f7e6d8', ink: '#7a3f1c' }],
  [/\bcats?\b|kitten|feline/i, { illustration: 'cat', tint: '#e5ebf4', ink: '#34496b' }],
  [/rabbit|bunn/i, { illustration: 'rabbit', tint: '#efe7f4', ink: '#5b3d72' }],
  [
    /bird|parrot|budgie|canar|finch|cockatiel|parakeet|dove|poultry|chicken/i,
    { illustration: 'bird', tint: '#e2f1ec', ink: '#22584a' },
  ],
  [/fish|aquati|goldfish|betta/i, { illustration: 'fish', tint: '#e0edf6', ink: '#1f4f72' }],
  [
    /reptile|turtle|tortoise|terrapin|lizard|gecko|snake|iguana/i,
    { illustration: 'tortoise', tint: '#e9f0dc', ink: '#435a1f' },
  ],
];

export const FALLBACK_LOOK: TCategoryLook = {
  illustration: 'paw',
  tint: '#f1ece6',
  ink: '#5a4c40',
};

export const categoryLook = (categoryName: string | undefined): TCategoryLook =>
  LOOKS.find(([pattern]) => pattern.test(categoryName ?? ''))?.[1] ?? FALLBACK_LOOK;
