export * from './contract';
export * from './headers';
export * from './openapi';
export { isWriteRoute, requiredRoleOf, type TRouteMetadata } from './routers/metadata';
export * from './routes';
export * from './rules';
export * from './schemas';
