import type { TOrderStatus } from '@pets/contract/schemas';
import { Button } from '@react-email/button';
import { Heading } from '@react-email/heading';
import { buttonStyle, P, type TTemplate } from '../mail-parts';
import type { TApplicationMailData } from '../mail-templates';

/**
 * Staff are told (at STORE_EMAIL) that an adopter withdrew their application from its page: what
 * it was when they did, and what followed (an approved one freed the animal, and its waiting list
 * was told).
 */
export type TWithdrawnMailData = TApplicationMailData & {
  /** The status the application left. */
  from: TOrderStatus;
  /** The adopters on the animal's waiting list who were told it is looking for a home again. */
  waitlistTold: number;
};

const WHAT_FOLLOWS: Partial<Record<TOrderStatus, (data: TWithdrawnMailData) => string>> = {
  approved: (data) =>
    `It was approved, so ${data.petName} is available again${
      data.waitlistTold === 0
        ? '; nobody was on the waiting list.'
        : `, and ${data.waitlistTold === 1 ? 'the adopter' : `the ${data.waitlistTold} adopters`} on the waiting list ${data.waitlistTold === 1 ? 'has' : 'have'} been told.`
    }`,
  waitlisted: () => 'It was on the waiting list; nothing else changed.',
  placed: () => 'It was in review; nothing else changed.',
};

export const STAFF_APPLICATION_WITHDRAWN: TTemplate<TWithdrawnMailData> = {
  subject: (data) => `Application A-${data.orderId} for ${data.petName} withdrawn by the adopter`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`${data.adopterName} withdrew their application`}</Heading>
      <P>{`${data.adopterName} withdrew their application (A-${data.orderId}) to adopt ${data.petName} from its page. ${WHAT_FOLLOWS[data.from]?.(data) ?? ''}`}</P>
      <Button href={`${context.siteUrl}/staff/applications/${data.orderId}`} style={buttonStyle}>
        Open the application
      </Button>
    </>
  ),
};
