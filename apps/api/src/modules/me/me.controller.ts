import { Controller } from '@nestjs/common';
import { contract } from '@pets/contract';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { TCaller } from '../../api-keys/caller';
import { Caller } from '../../http/caller.decorator';

/**
 * `GET /v1/me`: the calling key describes itself (name, start, role, readOnly, plan, firstParty,
 * owner, expiresAt), as GitHub's
 * `GET /user` does for a token. It reads nothing but the caller the guard already authenticated.
 */
@Controller()
export class MeController {
  @TsRestHandler(contract.me.getCurrentKey)
  getCurrentKey(@Caller() caller: TCaller) {
    return tsRestHandler(contract.me.getCurrentKey, async () => ({
      status: 200 as const,
      body: {
        name: caller.name,
        start: caller.start,
        role: caller.role,
        readOnly: caller.readOnly,
        plan: caller.plan,
        firstParty: caller.firstParty,
        owner: caller.owner && { type: caller.owner.type, name: caller.owner.name },
        mode: caller.environment === 'production' ? 'live' : 'test',
        // A person's session: its absolute end; any other key: its own expiry, if it has one.
        expiresAt:
          caller.session === null
            ? (caller.expiresAt?.toISOString() ?? null)
            : new Date(caller.session.expiresAtMs).toISOString(),
      },
    }));
  }
}
