import type { TErrorDetail } from '@pets/contract';
import type { ZodError, ZodIssue } from 'zod';
import { AppError } from './app-error';

type TSource = 'path' | 'query' | 'body';

const issueDetails = (source: TSource, issue: ZodIssue): TErrorDetail[] => {
  const prefix = source === 'body' ? [] : [source];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      field: [...prefix, ...issue.path, key].join('.'),
      message: 'is not a known field',
    }));
  }
  const path = [...prefix, ...issue.path].join('.');
  if (path === '' && issue.code === 'invalid_type') {
    return [{ field: 'body', message: 'must be a JSON object' }];
  }
  return [{ field: path || source, message: issue.message }];
};

/**
 * Turns zod's findings about path, query and body into one `invalid_request` AppError with a
 * `details` entry per field, in that order (the path first: it names the resource).
 */
export const validationError = (errors: Partial<Record<TSource, ZodError | null>>): AppError => {
  const details = (['path', 'query', 'body'] as const).flatMap((source) =>
    (errors[source]?.issues ?? []).flatMap((issue) => issueDetails(source, issue)),
  );
  const message = details.map((detail) => `${detail.field}: ${detail.message}`).join('; ');
  return new AppError('invalid_request', message || 'The request is invalid.', details);
};
