// `@pets/contract/rules`: the rules every package shares (body limit, cursor, `Link`), without the
// ts-rest router or the OpenAPI generator, so the site's browser bundle can import them.
export * from './body-limit';
export * from './cursor';
export * from './dev-mailbox';
export * from './email';
export * from './etag';
export * from './id';
export * from './link';
export * from './order-reference';
export * from './password';
export * from './pet-words';
export * from './phone';
export * from './photo-limit';
export * from './plans';
export * from './printed-command';
export * from './saved-search-words';
export * from './trusted-proxies';
export * from './values';
