// `@pets/contract/store`: the store's own details (name, address, hours, contact, time zone, fee),
// read from the environment the same way by the site and by the API's mail. Browser-safe (zod and
// Intl only, no router, no Node module), so a client component may import its formatters.
export * from './config';
export * from './format';
export * from './links';
