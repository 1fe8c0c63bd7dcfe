import type { ImgHTMLAttributes } from 'react';
import type { TPhotoView } from '@/lib/photo-view';

type TProps = Omit<
  ImgHTMLAttributes<HTMLImageElement>,
  'src' | 'srcSet' | 'width' | 'height' | 'style' | 'alt'
> & {
  view: TPhotoView;
  alt: string;
};

/**
 * A photo of an animal as every page shows it: its files as `srcset`, its box reserved by the
 * largest file's width and height, and its ThumbHash painted underneath until the photo covers it.
 * The place sets `sizes`, `loading` and its class.
 */
export const PhotoImage = ({ view, alt, ...img }: TProps) => (
  // biome-ignore lint/performance/noImgElement: the API's files are already sized and cached; next/image would re-encode them.
  <img
    src={view.src}
    srcSet={view.srcSet}
    width={view.width}
    height={view.height}
    alt={alt}
    {...img}
    style={view.placeholderUrl ? { backgroundImage: `url("${view.placeholderUrl}")` } : undefined}
  />
);
