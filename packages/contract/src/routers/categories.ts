import { initContract } from '@ts-rest/core';
import { ZCategories } from '../schemas/category';
import { notModified } from './conditional';

const c = initContract();

export const categoriesRouter = c.router({
  listCategories: {
    method: 'GET',
    path: '/categories',
    summary: 'List categories',
    description: 'Every category an animal can belong to: the valid values of `categoryId`.',
    responses: {
      ...notModified,
      200: ZCategories,
    },
  },
});
