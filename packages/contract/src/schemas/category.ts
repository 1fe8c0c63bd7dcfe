import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { idField } from './common';

export const ZCategory = extendApi(
  z.object({
    id: idField('The value to send as `categoryId`.'),
    name: z.string().describe('Display name, such as "Dogs".'),
  }),
  { title: 'Category', example: { id: 1, name: 'Dogs' } },
);
export type TCategory = z.infer<typeof ZCategory>;

export const ZCategories = extendApi(z.array(ZCategory), { title: 'Categories' });
export type TCategories = z.infer<typeof ZCategories>;
