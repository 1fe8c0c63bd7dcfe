import { formatOrderReference, PLAN_TITLES, type TPlan } from '@pets/contract/rules';
import {
  DECLINE_REASON_WORDS,
  ORDER_CONFIRMATION_HOURS,
  ORDER_LINK_DAYS,
  ORDER_STATUS_WORDS,
  type TDeclineReason,
  type TOrderStatus,
} from '@pets/contract/schemas';
import { SAVED_SEARCH_CONFIRM_DAYS } from '@pets/contract/site';
import { mailtoHref, type TStoreConfig, telHref } from '@pets/contract/store';
import type { TWebhookDisabledMailData } from '@pets/store/webhooks.repository';
// Each component from its own package: `@react-email/components` loads every one of them, with
// Tailwind's compiler, Prism and a Markdown parser that these emails never use (the API's
// process rests ~6 MB lower without them).
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { plainTextSelectors } from '@react-email/render';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { compile } from 'html-to-text';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { buttonStyle, colors, dateIn, P, type TTemplate } from './mail-parts';
import { PASSKEY_ADDED, type TPasskeyAddedMailData } from './templates/passkey-added';
import {
  STAFF_APPLICATION_WITHDRAWN,
  type TWithdrawnMailData,
} from './templates/staff-application-withdrawn';

/**
 * Every email the product sends, each written once as React (react-email) and rendered to HTML and
 * to plain text from that one source. A message's `data` is what the change left in the outbox; the
 * store's details and the site's address are read at send time, so a message queued before a
 * configuration change goes out in the store's current words.
 */

/** What an email about an application knows: nothing more than the adopter may see. */
export type TApplicationMailData = {
  orderId: number;
  petId: number;
  petName: string;
  adopterName: string;
  /** RFC 3339. */
  placedAt: string;
  declineReason?: TDeclineReason;
  declineNote?: string;
  /** A question staff emailed the adopter (`application-question`), as they wrote it. */
  question?: string;
};

/** One application in the email that lists an adopter's applications with their links. */
export type TLinkedApplication = {
  orderId: number;
  petName: string;
  status: TOrderStatus;
  /** RFC 3339. */
  placedAt: string;
};

/** The email listing an adopter's applications: each with its private status link. */
export type TLinksMailData = { applications: TLinkedApplication[] };

/** The staff's digest: the applications placed in (since, until], RFC 3339 both. */
export type TDigestMailData = {
  since: string;
  until: string;
  applications: {
    orderId: number;
    petName: string;
    adopterName: string;
    /** RFC 3339. */
    placedAt: string;
  }[];
};

/**
 * An account email (issue 27): whom it greets, and the account state its link is bound to (the
 * email, `password_changed_at` or `invited_at`, apps/api/src/links/account-links.ts). The link
 * itself is signed when the message is written, so no token is stored with it.
 */
export type TAccountMailData = {
  accountId: string;
  name: string;
  /** developer: links to /developers; staff and admin: to /staff. */
  role: 'admin' | 'staff' | 'developer';
  binding: string;
  /** Invitations: who invited, and as what. */
  invitedBy?: string;
};

/**
 * A saved search's confirmation email (issue 28): the search it confirms, and that search in words
 * ("Young dogs, good with cats": the contract's savedSearchInWords, as the site says it), written
 * when the message is queued; absent from messages queued before the emails named their search.
 */
export type TSavedSearchConfirmMailData = { searchId: string; search?: string };

/** A saved search's alert: the animals that became available and match it, newest first. */
export type TSavedSearchAlertMailData = {
  searchId: string;
  /** The search in words, as for the confirmation. */
  search?: string;
  pets: { id: number; name: string }[];
  /** How many more matched than the email lists. */
  more: number;
};

/** A plan request approved or declined in the back office: the requester is told (issue 27). */
export type TPlanDecidedMailData = {
  name: string;
  organizationName: string;
  decision: 'approved' | 'declined';
  currentPlan: TPlan;
  requestedPlan: TPlan;
  /** The staff member's note, if any. */
  note: string | null;
  /** The limits every key of the organisation has now (approvals). */
  limits: { perMinute: number; perDay: number } | null;
};

/** A developer asked for another plan: each active admin and staff member is told (issue 27). */
export type TPlanRequestedMailData = {
  /** The staff member written to. */
  name: string;
  organizationName: string;
  requesterName: string;
  requesterEmail: string;
  currentPlan: TPlan;
  requestedPlan: TPlan;
  message: string | null;
};

export type TMailRequest =
  | {
      template: 'saved-search-confirm';
      to: string;
      orderId?: undefined;
      data: TSavedSearchConfirmMailData;
    }
  | {
      template: 'saved-search-alert';
      to: string;
      orderId?: undefined;
      data: TSavedSearchAlertMailData;
    }
  | {
      template: 'account-verify' | 'account-reset' | 'account-invite';
      to: string;
      orderId?: undefined;
      data: TAccountMailData;
    }
  | {
      template: TMailTemplate;
      to: string;
      /** The application it is about (listed on its staff page). */
      orderId?: number;
      data: TApplicationMailData;
    }
  | { template: 'application-links'; to: string; orderId?: undefined; data: TLinksMailData }
  | { template: 'staff-digest'; to: string; orderId?: undefined; data: TDigestMailData }
  | {
      template: 'webhook-disabled';
      to: string;
      orderId?: undefined;
      data: TWebhookDisabledMailData;
    }
  | {
      template: 'plan-request-decided';
      to: string;
      orderId?: undefined;
      data: TPlanDecidedMailData;
    }
  | {
      template: 'plan-request-received';
      to: string;
      orderId?: undefined;
      data: TPlanRequestedMailData;
    }
  | { template: 'passkey-added'; to: string; orderId?: undefined; data: TPasskeyAddedMailData }
  | {
      template: 'staff-application-withdrawn';
      to: string;
      /** The application it is about (listed on its staff page). */
      orderId: number;
      data: TWithdrawnMailData;
    };

export type TMailStore = Pick<
  TStoreConfig,
  'name' | 'address' | 'openingHours' | 'phone' | 'email' | 'timeZone'
>;

export type TMailContext = {
  store: TMailStore;
  /** The site's public address, no trailing slash. */
  siteUrl: string;
  /** The private link to an application's status page (a signed token; apps/api/src/links). */
  statusUrl: (orderId: number) => string;
  /** The signed link of an account email (verify, reset, invite). */
  accountUrl: (purpose: 'verify' | 'reset' | 'invite', data: TAccountMailData) => string;
  /** The site's page of a saved search's link (a token made now; apps/api/src/links). */
  savedSearchUrl: (purpose: 'confirm' | 'unsubscribe', searchId: string) => string;
};

/** `headers`: a message's own header fields besides the usual (List-Unsubscribe, say). */
export type TRenderedMail = {
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
};

const Layout = ({
  preview,
  context,
  children,
}: {
  preview: string;
  context: TMailContext;
  children: ReactNode;
}) => (
  <Html lang="en">
    <Head />
    <Preview>{preview}</Preview>
    <Body
      style={{ backgroundColor: colors.paper, color: colors.ink, fontFamily: 'Georgia, serif' }}
    >
      <Container style={{ maxWidth: '560px', padding: '24px' }}>
        <Text style={{ fontSize: '14px', color: colors.muted }}>{context.store.name}</Text>
        {children}
        <Hr />
        <Section style={{ fontSize: '13px', color: colors.muted }}>
          <Text>{`${context.store.name}, ${context.store.address}. Open ${context.store.openingHours}.`}</Text>
          <Text>
            Phone <Link href={telHref(context.store.phone)}>{context.store.phone}</Link> · Email{' '}
            <Link href={mailtoHref(context.store.email)}>{context.store.email}</Link>
          </Text>
        </Section>
      </Container>
    </Body>
  </Html>
);

const petLink = (context: TMailContext, data: TApplicationMailData) =>
  `${context.siteUrl}/pets/${data.petId}`;

/**
 * Under every email to an adopter about their application: its status page, with no reference or
 * address to type.
 */
const StatusLink = ({ data, context }: { data: TApplicationMailData; context: TMailContext }) => (
  <Text style={{ fontSize: '14px', color: colors.muted }}>
    {'Follow your application at any time: '}
    <Link
      href={context.statusUrl(data.orderId)}
    >{`application ${formatOrderReference(data.orderId)}`}</Link>
    {` (this private link works for ${ORDER_LINK_DAYS} days; ask for fresh links on our site whenever you need them).`}
  </Text>
);

/** Every message, by its name (what the outbox row keeps). */
const TEMPLATES = {
  'application-confirm': {
    subject: (data) => `Please confirm your application for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`One more step, ${data.adopterName}`}</Heading>
        <P>{`Thank you for applying to adopt ${data.petName}. To send your application (${formatOrderReference(data.orderId)}) to us, confirm it within ${ORDER_CONFIRMATION_HOURS} hours: open its page and press "Confirm my application".`}</P>
        <Button href={context.statusUrl(data.orderId)} style={buttonStyle}>
          Confirm my application
        </Button>
        <P>{`If you did not apply, ignore this email: an application that is not confirmed is cancelled on its own, and we will not write again.`}</P>
      </>
    ),
  },
  'application-received': {
    subject: (data) => `We have your application for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`Thank you, ${data.adopterName}`}</Heading>
        <P>{`We received your application to adopt ${data.petName} on ${dateIn(context.store.timeZone, data.placedAt)}. Your reference is ${formatOrderReference(data.orderId)}.`}</P>
        <P>{`Other people may apply for ${data.petName} too. We read every application, choose the home that suits ${data.petName} best, and write to everyone who applied.`}</P>
        <Button href={petLink(context, data)} style={buttonStyle}>{`See ${data.petName}`}</Button>
      </>
    ),
  },
  'application-approved': {
    subject: (data) => `Good news: ${data.petName} can go home with you`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`Good news, ${data.adopterName}`}</Heading>
        <P>{`We have approved your application (${formatOrderReference(data.orderId)}) to adopt ${data.petName}. We are keeping ${data.petName} for you.`}</P>
        <P>{`Come and meet ${data.petName} at ${context.store.address} (${context.store.openingHours}). Please bring photo ID, proof of address, and a carrier or lead for the journey home. Call us on ${context.store.phone} if you would like to agree a time.`}</P>
      </>
    ),
  },
  'application-waitlisted': {
    subject: (data) => `Your application for ${data.petName}: you are on the waiting list`,
    body: (data) => (
      <>
        <Heading as="h1">You are on the waiting list</Heading>
        <P>{`Dear ${data.adopterName}, we have approved another application for ${data.petName}, so yours (${formatOrderReference(data.orderId)}) is now on the waiting list. If that adoption does not go ahead, we will look at the waiting list in the order people applied, and write to you.`}</P>
      </>
    ),
  },
  'application-available-again': {
    subject: (data) => `${data.petName} is looking for a home again`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`${data.petName} is available again`}</Heading>
        <P>{`Dear ${data.adopterName}, the adoption that was going ahead for ${data.petName} will not happen after all. Your application (${formatOrderReference(data.orderId)}) is still with us and we will be in touch soon.`}</P>
        <Button href={petLink(context, data)} style={buttonStyle}>{`See ${data.petName}`}</Button>
      </>
    ),
  },
  'application-declined': {
    subject: (data) => `Your application for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`Thank you for applying, ${data.adopterName}`}</Heading>
        <P>{`We are sorry: we will not be going ahead with your application (${formatOrderReference(data.orderId)}) to adopt ${data.petName}. ${DECLINE_REASON_WORDS[data.declineReason ?? 'other'].adopter}`}</P>
        {data.declineNote ? <P>{data.declineNote}</P> : null}
        <P>{`Many other animals are looking for a home, and you are welcome to apply again. Write to us at ${context.store.email} with any question.`}</P>
        <Button href={`${context.siteUrl}/`} style={buttonStyle}>
          Meet the animals
        </Button>
      </>
    ),
  },
  'application-completed': {
    subject: (data) => `Welcome home, ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`Congratulations, ${data.adopterName}`}</Heading>
        <P>{`${data.petName} is officially yours. Thank you for giving ${data.petName} a home. If you have any question in the first weeks, call us on ${context.store.phone}: we are glad to help.`}</P>
      </>
    ),
  },
  'application-cancelled': {
    subject: (data) => `Your application for ${data.petName} is cancelled`,
    body: (data, context) => (
      <>
        <Heading as="h1">Your application is cancelled</Heading>
        <P>{`Dear ${data.adopterName}, your application (${formatOrderReference(data.orderId)}) to adopt ${data.petName} is cancelled. If that is a mistake, write to us at ${context.store.email}.`}</P>
      </>
    ),
  },
  'application-question': {
    subject: (data) => `A question about your application for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`A question for you, ${data.adopterName}`}</Heading>
        <P>{`We are reading your application (${formatOrderReference(data.orderId)}) to adopt ${data.petName}, and would like to ask:`}</P>
        <Text
          style={{
            fontSize: '16px',
            lineHeight: '24px',
            borderLeft: `4px solid ${colors.accent}`,
            paddingLeft: '12px',
            whiteSpace: 'pre-line',
          }}
        >
          {data.question ?? ''}
        </Text>
        <P>{`Reply to ${context.store.email} or call us on ${context.store.phone}; your application stays in review meanwhile.`}</P>
      </>
    ),
  },
  'staff-new-application': {
    subject: (data) => `New application ${formatOrderReference(data.orderId)} for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`New application for ${data.petName}`}</Heading>
        <P>{`${data.adopterName} applied to adopt ${data.petName} on ${dateIn(context.store.timeZone, data.placedAt)} (${formatOrderReference(data.orderId)}).`}</P>
        <Button href={`${context.siteUrl}/staff/applications/${data.orderId}`} style={buttonStyle}>
          Open the application
        </Button>
      </>
    ),
  },
} satisfies Record<string, TTemplate<TApplicationMailData>>;

/** The email listing an adopter's applications, each with its private link. */
const LINKS: TTemplate<TLinksMailData> = {
  subject: () => 'Your adoption applications',
  body: (data, context) => (
    <>
      <Heading as="h1">Your applications</Heading>
      <P>{`You asked for the links to your adoption applications. Each link below opens an application's page, where you can see where it stands. The links are private (anyone with one can see that application) and work for ${ORDER_LINK_DAYS} days.`}</P>
      {data.applications.map((application) => (
        <Text key={application.orderId} style={{ fontSize: '16px', lineHeight: '24px' }}>
          <Link href={context.statusUrl(application.orderId)}>
            {`${application.petName} (${formatOrderReference(application.orderId)})`}
          </Link>
          {` · ${ORDER_STATUS_WORDS[application.status]} · applied ${dateIn(context.store.timeZone, application.placedAt)}`}
        </Text>
      ))}
      <P>{`If you did not ask for this email, you can ignore it: nothing has changed.`}</P>
    </>
  ),
};

/** The staff's daily digest (STAFF_DIGEST=daily): the applications that arrived since the last. */
const DIGEST: TTemplate<TDigestMailData> = {
  subject: (data) =>
    data.applications.length === 1
      ? '1 new application'
      : `${data.applications.length} new applications`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`New applications since ${dateIn(context.store.timeZone, data.since)}`}</Heading>
      {data.applications.map((application) => (
        <Text key={application.orderId} style={{ fontSize: '16px', lineHeight: '24px' }}>
          <Link href={`${context.siteUrl}/staff/applications/${application.orderId}`}>
            {`${formatOrderReference(application.orderId)}: ${application.adopterName} for ${application.petName}`}
          </Link>
          {` · ${dateIn(context.store.timeZone, application.placedAt)}`}
        </Text>
      ))}
      <Button href={`${context.siteUrl}/staff/applications`} style={buttonStyle}>
        Open the applications
      </Button>
    </>
  ),
};

/** Verify the address a developer signed up with. */
const ACCOUNT_VERIFY: TTemplate<TAccountMailData> = {
  subject: (_data, context) => `Confirm your email for ${context.store.name}`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`Welcome, ${data.name}`}</Heading>
      <P>{`Please confirm that this is your email address, so that you can create API keys for ${context.store.name}. The link works for 24 hours.`}</P>
      <Button href={context.accountUrl('verify', data)} style={buttonStyle}>
        Confirm my email
      </Button>
      <P>
        {'If you did not sign up, you can ignore this email: nothing happens without the link.'}
      </P>
    </>
  ),
};

/** A password reset someone asked for. */
const ACCOUNT_RESET: TTemplate<TAccountMailData> = {
  subject: (_data, context) => `Reset your ${context.store.name} password`,
  body: (data, context) => (
    <>
      <Heading as="h1">Reset your password</Heading>
      <P>{`Hello ${data.name}, someone (we hope you) asked to reset the password of your account. The link below lets you choose a new one; it works for one hour, and only once. Setting a new password signs you out everywhere.`}</P>
      <Button href={context.accountUrl('reset', data)} style={buttonStyle}>
        Choose a new password
      </Button>
      <P>
        {'If you did not ask for this, you can ignore this email: your password stays as it is.'}
      </P>
    </>
  ),
};

/** An invitation to the store's team. */
const ACCOUNT_INVITE: TTemplate<TAccountMailData> = {
  subject: (_data, context) => `You are invited to the ${context.store.name} back office`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`Hello ${data.name}`}</Heading>
      <P>{`${data.invitedBy ?? 'An administrator'} invited you to the ${context.store.name} back office as ${data.role === 'admin' ? 'an administrator' : 'staff'}. Open the link to choose your password; it works for 7 days, and only once.`}</P>
      <Button href={context.accountUrl('invite', data)} style={buttonStyle}>
        Accept the invitation
      </Button>
      <P>{'If you did not expect this, you can ignore this email.'}</P>
    </>
  ),
};

/** An endpoint failed for the whole retry schedule and was disabled: its owners are told. */
const WEBHOOK_DISABLED: TTemplate<TWebhookDisabledMailData> = {
  subject: (data) => `Webhook endpoint ${data.endpointId} was disabled`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`Hello ${data.name}`}</Heading>
      <P>{`Every delivery to your webhook endpoint ${data.endpointId} (${data.url}) failed for about 3 days, so ${context.store.name} stopped sending to it. It was registered with the key "${data.keyName}" (${data.keyStart}...).`}</P>
      <P>{data.reason}</P>
      <P>{`When it answers again, enable it with PATCH /v1/webhook-endpoints/${data.endpointId} {"status": "enabled"}: events are sent from then on, and GET /v1/events lists the ones in between (kept 30 days). Its deliveries, with each attempt's answer, are at GET /v1/webhook-endpoints/${data.endpointId}/deliveries.`}</P>
    </>
  ),
};

/**
 * A saved search's confirmation (issue 28). The link opens a page whose button confirms: a mail
 * scanner that opens every link confirms nothing.
 */
const SAVED_SEARCH_CONFIRM: TTemplate<TSavedSearchConfirmMailData> = {
  subject: (_data, context) => `Confirm your animal alerts from ${context.store.name}`,
  body: (data, context) => (
    <>
      <Heading as="h1">Confirm your alerts</Heading>
      <P>{`Someone (we hope you) asked ${context.store.name} to email this address when a new animal matches a search${data.search ? ` (${data.search})` : ''}. Confirm it, and we will write at most once a day, only when a new animal matches. The link works for ${SAVED_SEARCH_CONFIRM_DAYS} days.`}</P>
      <Button href={context.savedSearchUrl('confirm', data.searchId)} style={buttonStyle}>
        Confirm my alerts
      </Button>
      <P>
        {
          'If you did not ask for this, you can ignore this email: without the link, nothing is sent.'
        }
      </P>
    </>
  ),
};

const count = (value: number) => value.toLocaleString('en-GB');

/** A developer's plan request, approved or declined. */
const PLAN_REQUEST_DECIDED: TTemplate<TPlanDecidedMailData> = {
  subject: (data) =>
    data.decision === 'approved'
      ? `Your ${PLAN_TITLES[data.requestedPlan]} plan is ready`
      : `About your request for the ${PLAN_TITLES[data.requestedPlan]} plan`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`Hello ${data.name}`}</Heading>
      {data.decision === 'approved' ? (
        <P>{`We approved your request: ${data.organizationName} is on the ${PLAN_TITLES[data.requestedPlan]} plan now.${data.limits ? ` Every one of your keys may make ${count(data.limits.perMinute)} requests a minute and ${count(data.limits.perDay)} a day; the new limits apply within a few seconds, with nothing to change on your side.` : ''}`}</P>
      ) : (
        <P>{`We looked at your request to move ${data.organizationName} from the ${PLAN_TITLES[data.currentPlan]} plan to ${PLAN_TITLES[data.requestedPlan]}, and we cannot approve it for now. Your keys keep working as before, on the ${PLAN_TITLES[data.currentPlan]} plan.`}</P>
      )}
      {data.note ? <P>{`A note from ${context.store.name}: ${data.note}`}</P> : null}
      <Button href={`${context.siteUrl}/developers/plan`} style={buttonStyle}>
        See your plan
      </Button>
    </>
  ),
};

/** A new plan request, to the people who decide it: what was asked, by whom, and where to answer. */
const PLAN_REQUEST_RECEIVED: TTemplate<TPlanRequestedMailData> = {
  subject: (data) =>
    `${data.organizationName} asks for the ${PLAN_TITLES[data.requestedPlan]} plan`,
  body: (data, context) => (
    <>
      <Heading as="h1">{`Hello ${data.name}`}</Heading>
      <P>{`${data.requesterName} (${data.requesterEmail}) asked to move ${data.organizationName} from the ${PLAN_TITLES[data.currentPlan]} plan to ${PLAN_TITLES[data.requestedPlan]}. Approve or decline it in the back office; the developer is emailed your answer.`}</P>
      {data.message ? <P>{`Their message: ${data.message}`}</P> : null}
      <Button href={`${context.siteUrl}/staff/plans`} style={buttonStyle}>
        Open the plan requests
      </Button>
    </>
  ),
};

/**
 * The alert of a saved search: the new animals that match it, with their pages, and a one-click
 * unsubscribe (RFC 8058: List-Unsubscribe's https address takes a POST with no other check).
 */
const SAVED_SEARCH_ALERT: TTemplate<TSavedSearchAlertMailData> = {
  // The search in words at the end of the subject: an adopter with several searches tells them
  // apart; what is new comes first, before a mail client cuts the line short.
  subject: (data) => {
    const total = data.pets.length + data.more;
    const search = data.search ? `: ${data.search}` : '';
    return total === 1
      ? `${data.pets[0]?.name ?? 'A new animal'} matches your search${search}`
      : `${total} new animals match your search${search}`;
  },
  body: (data, context) => (
    <>
      <Heading as="h1">
        {data.search
          ? `New animals for your search: ${data.search}`
          : 'New animals for your search'}
      </Heading>
      <P>
        {`These animals arrived or became available for adoption since we last wrote, and match the search you saved${data.search ? ` (${data.search})` : ''}:`}
      </P>
      {data.pets.map((pet) => (
        <Text key={pet.id} style={{ fontSize: '16px', lineHeight: '24px' }}>
          <Link href={`${context.siteUrl}/pets/${pet.id}`}>{pet.name}</Link>
        </Text>
      ))}
      {data.more > 0 ? <P>{`And ${data.more} more on our site.`}</P> : null}
      <P>{`We write at most once a day about this search.`}</P>
      <Text style={{ fontSize: '14px', color: colors.muted }}>
        {'No longer looking? '}
        <Link href={context.savedSearchUrl('unsubscribe', data.searchId)}>Stop these emails</Link>
      </Text>
    </>
  ),
  headers: (data, context) => ({
    'List-Unsubscribe': `<${context.savedSearchUrl('unsubscribe', data.searchId)}/one-click>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  }),
};

/**
 * The messages whose input is not just one application's (TApplicationMailData): each with its own
 * kind of `data`.
 */
const LIST_TEMPLATES = {
  'application-links': LINKS,
  'staff-digest': DIGEST,
  'account-verify': ACCOUNT_VERIFY,
  'account-reset': ACCOUNT_RESET,
  'account-invite': ACCOUNT_INVITE,
  'webhook-disabled': WEBHOOK_DISABLED,
  'saved-search-confirm': SAVED_SEARCH_CONFIRM,
  'saved-search-alert': SAVED_SEARCH_ALERT,
  'plan-request-decided': PLAN_REQUEST_DECIDED,
  'plan-request-received': PLAN_REQUEST_RECEIVED,
  'passkey-added': PASSKEY_ADDED,
  'staff-application-withdrawn': STAFF_APPLICATION_WITHDRAWN,
} as const;
type TListTemplate = keyof typeof LIST_TEMPLATES;
export const LINKS_TEMPLATE = 'application-links' satisfies TListTemplate;
export const DIGEST_TEMPLATE = 'staff-digest' satisfies TListTemplate;

export type TMailTemplate = keyof typeof TEMPLATES;
/** The messages to adopters about their application (the others are to staff). */
export type TApplicationTemplate = Exclude<TMailTemplate, 'staff-new-application'>;

const isToAdopter = (template: TMailTemplate): template is TApplicationTemplate =>
  template !== 'staff-new-application';

const isListTemplate = (template: string): template is TListTemplate =>
  Object.hasOwn(LIST_TEMPLATES, template);

const bodyOf = (
  mail: Pick<TMailRequest, 'template' | 'data'>,
  context: TMailContext,
): ReactNode => {
  if (isListTemplate(mail.template)) {
    const template = LIST_TEMPLATES[mail.template] as TTemplate<unknown>;
    return template.body(mail.data, context);
  }
  const data = mail.data as TApplicationMailData;
  const template: TTemplate<TApplicationMailData> = TEMPLATES[mail.template];
  return (
    <>
      {template.body(data, context)}
      {isToAdopter(mail.template) ? <StatusLink data={data} context={context} /> : null}
    </>
  );
};

const subjectOf = (
  mail: Pick<TMailRequest, 'template' | 'data'>,
  context: TMailContext,
): string => {
  const template = (
    isListTemplate(mail.template) ? LIST_TEMPLATES[mail.template] : TEMPLATES[mail.template]
  ) as TTemplate<unknown>;
  return template.subject(mail.data, context);
};

/**
 * The doctype react-email's `render` gives its documents: email clients render by the XHTML 1.0
 * Transitional rules.
 */
const DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * The preload hints React adds to <head> for each image (as react-email's `render` does, dropped:
 * a mail client fetches the images it shows).
 */
const IMAGE_PRELOAD = /<link rel="preload" as="image"[^>]*>/g;

/**
 * react-email's `toPlainText` (html-to-text with its selectors: no previews or images, links as
 * "text https://...", no wrapping), compiled once: `toPlainText` compiles its options on every
 * call, which was three quarters of the text's cost.
 */
const toPlainText = compile({ wordwrap: false, selectors: plainTextSelectors });

/**
 * The message in HTML and plain text. The HTML is React's static markup, in one synchronous pass:
 * react-email's `render` streams it through a Suspense boundary (for components that load data,
 * which ours never do), about four times the work for the same elements, plus markers that no
 * reader sees.
 */
export const renderMail = async (
  mail: Pick<TMailRequest, 'template' | 'data'>,
  context: TMailContext,
): Promise<TRenderedMail> => {
  const subject = subjectOf(mail, context);
  const headers = isListTemplate(mail.template)
    ? (LIST_TEMPLATES[mail.template] as TTemplate<unknown>).headers?.(mail.data, context)
    : undefined;
  const html = `${DOCTYPE}${renderToStaticMarkup(
    <Layout preview={subject} context={context}>
      {bodyOf(mail, context)}
    </Layout>,
  ).replace(IMAGE_PRELOAD, '')}`;
  return { subject, html, text: toPlainText(html), ...(headers ? { headers } : {}) };
};

/** Every template's name, as the outbox keeps it. */
export type TAnyMailTemplate = TMailTemplate | TListTemplate;

export const isMailTemplate = (value: string): value is TAnyMailTemplate =>
  isListTemplate(value) || Object.hasOwn(TEMPLATES, value);
