import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { PlansController } from './plans.controller';
import { PlansService } from './plans.service';

/**
 * Plans (issue 27, §4.5): developers' plan requests (through the org router, OrgKeysModule) and
 * their decisions in the back office. The key cache comes from the global AuthModule.
 */
@Module({
  imports: [MailModule],
  controllers: [PlansController],
  providers: [PlansService],
  exports: [PlansService],
})
export class PlansModule {}
