import { Controller, Req } from '@nestjs/common';
import { siteContract } from '@pets/contract/site';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { FastifyRequest } from 'fastify';
import type { TCaller } from '../api-keys/caller';
import { clientAddressOf } from '../auth/identity';
import { Caller } from '../http/caller.decorator';
import { PlansService } from './plans.service';

/**
 * The back office's plan requests (`siteContract.plans`, /internal/plans): staff and admins read
 * them, admins alone decide them and set limits (the contract's access; AdmissionGuard answers 403
 * to staff and developers there), through the site only (404 to anyone else).
 */
@Controller()
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @TsRestHandler(siteContract.plans)
  handle(@Caller() caller: TCaller, @Req() request: FastifyRequest) {
    const visitor = clientAddressOf(request);
    return tsRestHandler(siteContract.plans, {
      listPlanRequests: async ({ query }) => ({
        status: 200 as const,
        body: { requests: await this.plans.list(query.status, query.limit) },
      }),
      decidePlanRequest: async ({ params, body }) => ({
        status: 200 as const,
        body: { request: await this.plans.decide(caller, params.requestId, body, visitor) },
      }),
      setOrganizationLimits: async ({ params, body }) => ({
        status: 200 as const,
        body: {
          organization: await this.plans.setLimits(caller, params.organizationId, body, visitor),
        },
      }),
    });
  }
}
