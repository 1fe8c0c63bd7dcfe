import { Controller, Req } from '@nestjs/common';
import { siteContract } from '@pets/contract/site';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { FastifyRequest } from 'fastify';
import type { TCaller } from '../api-keys/caller';
import { clientAddressOf } from '../auth/identity';
import { Caller } from '../http/caller.decorator';
import { PlansService } from '../plans/plans.service';
import { OrgKeysService } from './org-keys.service';

/**
 * The developer portal's keys and usage (`siteContract.org`, /internal/org): developers' sessions
 * only, through the site (AdmissionGuard answers 404 to anyone else and 403 to other roles).
 */
@Controller()
export class OrgKeysController {
  constructor(
    private readonly orgKeys: OrgKeysService,
    private readonly plans: PlansService,
  ) {}

  @TsRestHandler(siteContract.org)
  handle(@Caller() caller: TCaller, @Req() request: FastifyRequest) {
    const visitor = clientAddressOf(request);
    return tsRestHandler(siteContract.org, {
      getOrganization: async () => ({
        status: 200 as const,
        body: await this.orgKeys.getOrganization(caller),
      }),
      listOrgKeys: async () => ({
        status: 200 as const,
        body: { keys: await this.orgKeys.list(caller) },
      }),
      createOrgKey: async ({ body }) => ({
        status: 201 as const,
        body: await this.orgKeys.create(caller, body, visitor),
      }),
      createReferenceKey: async () => ({
        status: 201 as const,
        body: await this.orgKeys.createForReference(caller, visitor),
      }),
      revokeOrgKey: async ({ params }) => ({
        status: 200 as const,
        body: { apiKey: await this.orgKeys.revoke(caller, params.keyId, visitor) },
      }),
      rollOrgKey: async ({ params, body }) => ({
        status: 200 as const,
        body: await this.orgKeys.roll(caller, params.keyId, body.overlapHours, visitor),
      }),
      getKeyUsage: async ({ params, query }) => ({
        status: 200 as const,
        body: await this.orgKeys.usage(caller, params.keyId, query.days),
      }),
      getOrgUsageNow: async () => ({
        status: 200 as const,
        body: await this.orgKeys.usageNow(caller),
      }),
      requestPlanChange: async ({ body }) => ({
        status: 201 as const,
        body: { request: await this.plans.request(caller, body, visitor) },
      }),
      withdrawPlanChange: async ({ params }) => ({
        status: 200 as const,
        body: { request: await this.plans.withdraw(caller, params.requestId, visitor) },
      }),
    });
  }
}
