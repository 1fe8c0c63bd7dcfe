export * from './contract';
export * from './headers';
export * from './openapi';
export type { TRouteMetadata } from './routers/metadata';
export * from './schemas/category';
export * from './schemas/common';
export * from './schemas/error';
export * from './schemas/order';
export * from './schemas/pet';
