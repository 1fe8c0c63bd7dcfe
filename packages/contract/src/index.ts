export * from './contract';
export * from './headers';
export * from './openapi';
export {
  isWriteRoute,
  partnerLimitsOf,
  requiredRoleOf,
  type TPartnerLimits,
  type TRouteMetadata,
} from './routers/metadata';
export * from './routes';
export * from './rules';
export * from './schemas';
