import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module';
import { OrgKeysController } from './org-keys.controller';
import { OrgKeysService } from './org-keys.service';

/**
 * The developer portal's API side (issue 27, §4.2–4.3): an organisation's keys and their usage.
 * The key cache (`ApiKeysService`) comes from the global AuthModule, the rate-limit store from the
 * global rate-limit module.
 */
@Module({
  imports: [PlansModule],
  controllers: [OrgKeysController],
  providers: [OrgKeysService],
})
export class OrgKeysModule {}
