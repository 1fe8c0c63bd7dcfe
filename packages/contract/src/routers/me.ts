import { initContract } from '@ts-rest/core';
import { ZCurrentKey } from '../schemas/api-key';
import { notModified } from './conditional';

const c = initContract();

export const meRouter = c.router({
  getCurrentKey: {
    method: 'GET',
    path: '/me',
    summary: 'Describe the calling key',
    description:
      'The key the request was made with: its name, display start, role, whether it is read-only, ' +
      'and its plan. Any valid key may call it (a read-only one too), so a client can tell what ' +
      'its key may do before it tries; a revoked or unknown key is `401`, as everywhere.',
    responses: {
      ...notModified,
      200: ZCurrentKey,
    },
  },
});
