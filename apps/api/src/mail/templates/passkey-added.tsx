import { Button } from '@react-email/button';
import { Heading } from '@react-email/heading';
import { buttonStyle, dateIn, P, type TTemplate } from '../mail-parts';

/**
 * A passkey was added to an account: its owner is told at once, whoever added it. A passkey
 * signs in without the password, so one added from a borrowed or stolen session would be a
 * silent way back in; this email is how the owner hears of it (docs/decisions.md, "Passkeys need
 * the password again, and the owner hears of each").
 */
export type TPasskeyAddedMailData = {
  /** The account's owner, greeted. */
  name: string;
  /** developer: the portal's reset page; staff and admin: the back office's. */
  role: 'admin' | 'staff' | 'developer';
  passkeyName: string;
  /** RFC 3339. */
  addedAt: string;
  /** The session's device in words ("Firefox on Windows"), and the address it came from. */
  device: string;
  visitorIp: string;
};

/** "An unknown browser" reads "an unknown browser" inside a sentence; names keep their capital. */
const inSentence = (device: string) =>
  device.replace(/^(An?) /, (article) => article.toLowerCase());

export const PASSKEY_ADDED: TTemplate<TPasskeyAddedMailData> = {
  subject: (_data, context) => `A passkey was added to your ${context.store.name} account`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`Hello ${data.name}`}</Heading>
      <P>{`A passkey called “${data.passkeyName}” was added to your account on ${dateIn(context.store.timeZone, data.addedAt)}, from ${inSentence(data.device)} (${data.visitorIp}). It signs in without your password.`}</P>
      <P>{'If that was you, there is nothing to do.'}</P>
      <P>
        {
          'If it was not, someone else is using your account: reset your password now. A reset signs you out everywhere and removes every passkey, this one included.'
        }
      </P>
      <Button
        href={`${context.siteUrl}/${data.role === 'developer' ? 'developers' : 'staff'}/reset`}
        style={buttonStyle}
      >
        Reset my password
      </Button>
    </>
  ),
};
