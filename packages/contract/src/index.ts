export * from './contract';
export * from './headers';
export * from './openapi';
export {
  isWriteRoute,
  partnerLimitsOf,
  requiredRoleOf,
  siteAccessOf,
  type TPartnerLimits,
  type TRouteMetadata,
  type TSiteAccess,
  testKeysAllowedOf,
} from './routers/metadata';
export * from './routes';
export * from './rules';
export * from './schemas';
