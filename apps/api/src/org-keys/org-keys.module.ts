import { Module } from '@nestjs/common';
import { WebhooksModule } from '../modules/webhooks/webhooks.module';
import { PlansModule } from '../plans/plans.module';
import { OrgKeysController } from './org-keys.controller';
import { OrgKeysService } from './org-keys.service';
import { OrgWebhooksController } from './org-webhooks.controller';

/**
 * The developer portal's API side (issue 27, §4.2–4.3): an organisation's keys, their usage and
 * their webhook endpoints.
 * The key cache (`ApiKeysService`) comes from the global AuthModule, the rate-limit store from the
 * global rate-limit module.
 */
@Module({
  imports: [WebhooksModule, PlansModule],
  controllers: [OrgKeysController, OrgWebhooksController],
  providers: [OrgKeysService],
})
export class OrgKeysModule {}
