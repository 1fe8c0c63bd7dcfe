import { Controller, Req } from '@nestjs/common';
import { siteContract } from '@pets/contract/site';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { TsRestHandler, tsRestHandler } from '@ts-rest/nest';
import type { FastifyRequest } from 'fastify';
import type { TCaller } from '../api-keys/caller';
import { clientAddressOf } from '../auth/identity';
import { Caller } from '../http/caller.decorator';
import { AccountsService } from './accounts.service';
import { PasskeysService } from './passkeys.service';

/**
 * The site-only operations for people (`siteContract`, /internal): only the store's site reaches
 * them (AdmissionGuard answers 404 to anyone else, from each route's `siteAccess`). The visitor's
 * address is the one the site vouched for (`Pets-Visitor-IP`).
 */
@Controller()
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly passkeys: PasskeysService,
  ) {}

  @TsRestHandler(siteContract.auth)
  handle(@Req() request: FastifyRequest) {
    const visitor = clientAddressOf(request);
    return tsRestHandler(siteContract.auth, {
      signUp: async ({ body }) => ({
        status: 201 as const,
        body: await this.accounts.signUp(body, visitor),
      }),
      verifyEmail: async ({ body }) => ({
        status: 200 as const,
        body: await this.accounts.verifyEmail(body.token),
      }),
      signIn: async ({ body }) => ({
        status: 200 as const,
        body: await this.accounts.signIn(body, visitor),
      }),
      passkeyOptions: async () => ({
        status: 200 as const,
        body: await this.passkeys.authenticationOptions(),
      }),
      passkeySignIn: async ({ body }) => ({
        status: 200 as const,
        body: await this.passkeys.signIn(
          body.response as AuthenticationResponseJSON,
          body,
          visitor,
        ),
      }),
      requestReset: async ({ body }) => {
        await this.accounts.requestReset(body.email);
        return {
          status: 202 as const,
          body: {
            message: 'If an account has this address, a link to reset its password is on its way.',
          },
        };
      },
      resetPassword: async ({ body }) => ({
        status: 200 as const,
        body: await this.accounts.resetPassword(body.token, body.password, visitor),
      }),
      acceptInvite: async ({ body }) => ({
        status: 200 as const,
        body: await this.accounts.acceptInvite(body.token, body.name, body.password, visitor),
      }),
    });
  }
}

@Controller()
export class SessionController {
  constructor(private readonly accounts: AccountsService) {}

  @TsRestHandler(siteContract.session)
  handle(@Caller() caller: TCaller, @Req() request: FastifyRequest) {
    const visitor = clientAddressOf(request);
    return tsRestHandler(siteContract.session, {
      getSession: async () => ({
        status: 200 as const,
        body: await this.accounts.getSession(caller),
      }),
      signOut: async () => {
        await this.accounts.signOut(caller, visitor);
        return { status: 204 as const, body: undefined };
      },
    });
  }
}

@Controller()
export class AccountController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly passkeys: PasskeysService,
  ) {}

  @TsRestHandler(siteContract.account)
  handle(@Caller() caller: TCaller, @Req() request: FastifyRequest) {
    const visitor = clientAddressOf(request);
    return tsRestHandler(siteContract.account, {
      listSessions: async () => ({
        status: 200 as const,
        body: await this.accounts.listSessions(caller),
      }),
      revokeSession: async ({ params }) => {
        await this.accounts.revokeSession(caller, params.id, visitor);
        return { status: 204 as const, body: undefined };
      },
      revokeAllSessions: async () => ({
        status: 200 as const,
        body: await this.accounts.revokeAllSessions(caller, visitor),
      }),
      changePassword: async ({ body }) => {
        await this.accounts.changePassword(caller, body.currentPassword, body.newPassword, visitor);
        return { status: 204 as const, body: undefined };
      },
      listPasskeys: async () => ({ status: 200 as const, body: await this.passkeys.list(caller) }),
      passkeyRegistrationOptions: async ({ body }) => ({
        status: 200 as const,
        body: await this.passkeys.registrationOptions(caller, body, visitor),
      }),
      addPasskey: async ({ body }) => ({
        status: 201 as const,
        body: await this.passkeys.add(
          caller,
          body.response as RegistrationResponseJSON,
          body.name,
          visitor,
        ),
      }),
      deletePasskey: async ({ params }) => {
        await this.passkeys.delete(caller, params.id, visitor);
        return { status: 204 as const, body: undefined };
      },
      renamePasskey: async ({ params, body }) => ({
        status: 200 as const,
        body: await this.passkeys.rename(caller, params.id, body.name, visitor),
      }),
      resendVerification: async () => {
        await this.accounts.resendVerification(caller);
        return {
          status: 202 as const,
          body: { message: 'If the address is not confirmed yet, a new link is on its way.' },
        };
      },
    });
  }
}

@Controller()
export class TeamController {
  constructor(private readonly accounts: AccountsService) {}

  @TsRestHandler(siteContract.team)
  handle(@Caller() caller: TCaller, @Req() request: FastifyRequest) {
    const visitor = clientAddressOf(request);
    return tsRestHandler(siteContract.team, {
      listAccounts: async () => ({ status: 200 as const, body: await this.accounts.listTeam() }),
      inviteAccount: async ({ body }) => ({
        status: 201 as const,
        body: await this.accounts.invite(caller, body, visitor),
      }),
      resendInvite: async ({ params }) => ({
        status: 200 as const,
        body: await this.accounts.resendInvite(caller, params.id, visitor),
      }),
      changeRole: async ({ params, body }) => ({
        status: 200 as const,
        body: await this.accounts.changeRole(caller, params.id, body.role, visitor),
      }),
      deactivate: async ({ params }) => ({
        status: 200 as const,
        body: await this.accounts.deactivate(caller, params.id, visitor),
      }),
      reactivate: async ({ params }) => ({
        status: 200 as const,
        body: await this.accounts.reactivate(caller, params.id, visitor),
      }),
    });
  }
}

/** Admins: the audit log (written by the changes themselves, in their transactions). */
@Controller()
export class AuditController {
  constructor(private readonly accounts: AccountsService) {}

  @TsRestHandler(siteContract.audit)
  handle() {
    return tsRestHandler(siteContract.audit, {
      listAudit: async ({ query }) => ({
        status: 200 as const,
        body: await this.accounts.listAudit(query),
      }),
    });
  }
}
