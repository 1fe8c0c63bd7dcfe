/**
 * Request headers only the site's edge sets (server.ts drops whatever a client sent in them), read
 * by the pages and actions through lib/visitor.ts.
 */
/** The visitor's address, as the edge decided it (visitor.ts). */
export const VISITOR_HEADER = 'x-pets-visitor';
/** The path and query the visitor asked for, for "back to the page you wanted" after sign-in. */
export const PATH_HEADER = 'x-pets-path';
