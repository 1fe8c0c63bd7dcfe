// `@pets/contract/schemas`: the zod schemas and their types alone, without the ts-rest router or
// the OpenAPI generator, for code that ships to browsers.
export * from './api-key';
export * from './category';
export * from './common';
export * from './condition';
export * from './custom-limit';
export * from './decline-reason-words';
export * from './dev-mailbox';
export * from './error';
export * from './event';
export * from './idempotency';
export * from './order';
export * from './order-link';
export * from './order-status-words';
export * from './pet';
export * from './photo';
export * from './webhook';
