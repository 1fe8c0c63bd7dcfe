import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { idField } from './common';

export const ZCategory = extendApi(
  z.object({
    id: idField('The value to send as `categoryId`.'),
    name: z.string().max(100).describe('Display name, such as "Dogs".'),
  }),
  { title: 'Category', example: { id: 1, name: 'Dogs' } },
);
export type TCategory = z.infer<typeof ZCategory>;

/** listCategories answers with every category, up to this many (a store has a handful). */
export const MAX_CATEGORIES = 1000;

export const ZCategories = extendApi(z.array(ZCategory).max(MAX_CATEGORIES), {
  title: 'Categories',
});
export type TCategories = z.infer<typeof ZCategories>;
