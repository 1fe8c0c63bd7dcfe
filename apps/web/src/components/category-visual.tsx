import {
  Bird,
  Bug,
  Cat,
  Dog,
  Fish,
  type LucideIcon,
  PawPrint,
  Rabbit,
  Rat,
  Shrimp,
  Snail,
  Squirrel,
  Turtle,
} from 'lucide-react';

type TCategoryLook = { icon: LucideIcon; tint: string; ink: string };

/**
 * The visual of a category: a local SVG icon (lucide, drawn inline, no remote asset) on a tinted
 * tile. Matched on the category's name, so new categories of a known kind look right at once and
 * unknown ones get a paw print.
 */
const LOOKS: readonly [RegExp, TCategoryLook][] = [
  [/dog|pupp|canine/i, { icon: Dog, tint: '#f7e6d8', ink: '#7a3f1c' }],
  [/cat|kitten|feline/i, { icon: Cat, tint: '#e5ebf4', ink: '#34496b' }],
  [/rabbit|bunn/i, { icon: Rabbit, tint: '#efe7f4', ink: '#5b3d72' }],
  [
    /bird|parrot|budgie|canar|finch|cockatiel|poultry|chicken/i,
    { icon: Bird, tint: '#e2f1ec', ink: '#22584a' },
  ],
  [/fish|aquati/i, { icon: Fish, tint: '#e0edf6', ink: '#1f4f72' }],
  [
    /reptile|turtle|tortoise|lizard|snake|gecko/i,
    { icon: Turtle, tint: '#e9f0dc', ink: '#435a1f' },
  ],
  [
    /guinea|hamster|gerbil|mouse|mice|rat|rodent|small/i,
    { icon: Rat, tint: '#f5eedb', ink: '#6b5217' },
  ],
  [/ferret|squirrel|chinchilla/i, { icon: Squirrel, tint: '#f4e9df', ink: '#6d4326' }],
  [/snail/i, { icon: Snail, tint: '#eef0e2', ink: '#4f5523' }],
  [/insect|spider|bug/i, { icon: Bug, tint: '#eeeae3', ink: '#4d4439' }],
  [/shrimp|crab|crustacean/i, { icon: Shrimp, tint: '#f8e4df', ink: '#7b2f22' }],
];
const FALLBACK: TCategoryLook = { icon: PawPrint, tint: '#f1ece6', ink: '#5a4c40' };

export const categoryLook = (categoryName: string | undefined): TCategoryLook =>
  LOOKS.find(([pattern]) => pattern.test(categoryName ?? ''))?.[1] ?? FALLBACK;

type TProps = { categoryName: string | undefined; size: 'card' | 'hero' };

/** Decorative: the category is always also given as text next to it. */
export const CategoryVisual = ({ categoryName, size }: TProps) => {
  const { icon: Icon, tint, ink } = categoryLook(categoryName);
  return (
    <div className={`visual visual--${size}`} style={{ backgroundColor: tint, color: ink }}>
      <Icon aria-hidden="true" focusable="false" strokeWidth={1.5} className="visual__icon" />
    </div>
  );
};
