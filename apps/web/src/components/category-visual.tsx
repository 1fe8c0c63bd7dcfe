import { categoryLook } from '@/lib/category-look';
import { Illustration } from './illustrations';

type TProps = { categoryName: string | undefined; size: 'card' | 'hero' | 'thumb' };

/**
 * The visual of an animal without a photo: its category's drawing (the site's own SVG, inline, no
 * remote asset) on a tinted tile. Decorative: the category is always also given as text next to it.
 */
export const CategoryVisual = ({ categoryName, size }: TProps) => {
  const { illustration, tint, ink } = categoryLook(categoryName);
  return (
    <div className={`visual visual--${size}`} style={{ backgroundColor: tint, color: ink }}>
      <Illustration kind={illustration} className="visual__icon" />
    </div>
  );
};
