import { type ContractNoBodyType, initContract } from '@ts-rest/core';

const c = initContract();

/**
 * Every GET answers `304 Not Modified`, with no body, when the request's `If-None-Match` names the
 * `ETag` its `200` would carry (rules/etag.ts): `...notModified` in a GET route's `responses`.
 */
export const notModified: { 304: ContractNoBodyType } = { 304: c.noBody() };
