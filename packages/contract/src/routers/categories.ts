import { initContract } from '@ts-rest/core';
import { ZCategories } from '../schemas/category';

const c = initContract();

export const categoriesRouter = c.router({
  listCategories: {
    method: 'GET',
    path: '/categories',
    summary: 'List categories',
    description: 'Every category an animal can belong to: the valid values of `categoryId`.',
    responses: {
      200: ZCategories,
    },
  },
});
