import { DECLINE_REASON_WORDS, type TDeclineReason } from '@pets/contract/schemas';
import { formatStoreInstant, mailtoHref, type TStoreConfig, telHref } from '@pets/contract/store';
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import { plainTextSelectors } from '@react-email/render';
import { compile } from 'html-to-text';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

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
};

export type TMailRequest = {
  template: TMailTemplate;
  to: string;
  /** The application it is about (listed on its staff page). */
  orderId?: number;
  data: TApplicationMailData;
};

export type TMailStore = Pick<
  TStoreConfig,
  'name' | 'address' | 'openingHours' | 'phone' | 'email' | 'timeZone'
>;

export type TMailContext = {
  store: TMailStore;
  /** The site's public address, no trailing slash. */
  siteUrl: string;
};

export type TRenderedMail = { subject: string; html: string; text: string };

/** "1 July 2026, 10:30 BST": on the store's clock, with its zone, as the site shows it. */
const dateIn = (timeZone: string, instant: string): string =>
  formatStoreInstant(instant, timeZone, { month: 'long' });

const colors = { ink: '#1f2a24', muted: '#5b6660', accent: '#2f6b4f', paper: '#fbf8f3' };

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

const P = ({ children }: { children: ReactNode }) => (
  <Text style={{ fontSize: '16px', lineHeight: '24px' }}>{children}</Text>
);

const petLink = (context: TMailContext, data: TApplicationMailData) =>
  `${context.siteUrl}/pets/${data.petId}`;

type TTemplate = {
  subject: (data: TApplicationMailData, context: TMailContext) => string;
  body: (data: TApplicationMailData, context: TMailContext) => ReactNode;
};

/** Every message, by its name (what the outbox row keeps). */
const TEMPLATES = {
  'application-received': {
    subject: (data) => `We have your application for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`Thank you, ${data.adopterName}`}</Heading>
        <P>{`We received your application to adopt ${data.petName} on ${dateIn(context.store.timeZone, data.placedAt)}. Your reference is A-${data.orderId}.`}</P>
        <P>{`Other people may apply for ${data.petName} too. We read every application, choose the home that suits ${data.petName} best, and write to everyone who applied.`}</P>
        <Button
          href={petLink(context, data)}
          style={{ backgroundColor: colors.accent, color: '#ffffff', padding: '12px 18px' }}
        >{`See ${data.petName}`}</Button>
      </>
    ),
  },
  'application-approved': {
    subject: (data) => `Good news: ${data.petName} can go home with you`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`Good news, ${data.adopterName}`}</Heading>
        <P>{`We have approved your application (A-${data.orderId}) to adopt ${data.petName}. We are keeping ${data.petName} for you.`}</P>
        <P>{`Come and meet ${data.petName} at ${context.store.address} (${context.store.openingHours}). Please bring photo ID, proof of address, and a carrier or lead for the journey home. Call us on ${context.store.phone} if you would like to agree a time.`}</P>
      </>
    ),
  },
  'application-waitlisted': {
    subject: (data) => `Your application for ${data.petName}: you are on the waiting list`,
    body: (data) => (
      <>
        <Heading as="h1">You are on the waiting list</Heading>
        <P>{`Dear ${data.adopterName}, we have approved another application for ${data.petName}, so yours (A-${data.orderId}) is now on the waiting list. If that adoption does not go ahead, we will look at the waiting list in the order people applied, and write to you.`}</P>
      </>
    ),
  },
  'application-available-again': {
    subject: (data) => `${data.petName} is looking for a home again`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`${data.petName} is available again`}</Heading>
        <P>{`Dear ${data.adopterName}, the adoption that was going ahead for ${data.petName} will not happen after all. Your application (A-${data.orderId}) is still with us and we will be in touch soon.`}</P>
        <Button
          href={petLink(context, data)}
          style={{ backgroundColor: colors.accent, color: '#ffffff', padding: '12px 18px' }}
        >{`See ${data.petName}`}</Button>
      </>
    ),
  },
  'application-declined': {
    subject: (data) => `Your application for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`Thank you for applying, ${data.adopterName}`}</Heading>
        <P>{`We are sorry: we will not be going ahead with your application (A-${data.orderId}) to adopt ${data.petName}. ${DECLINE_REASON_WORDS[data.declineReason ?? 'other'].adopter}`}</P>{' '}
        {data.declineNote ? <P>{data.declineNote}</P> : null}
        <P>{`Many other animals are looking for a home, and you are welcome to apply again. Write to us at ${context.store.email} with any question.`}</P>
        <Button
          href={`${context.siteUrl}/`}
          style={{ backgroundColor: colors.accent, color: '#ffffff', padding: '12px 18px' }}
        >
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
        <P>{`Dear ${data.adopterName}, your application (A-${data.orderId}) to adopt ${data.petName} is cancelled. If that is a mistake, write to us at ${context.store.email}.`}</P>
      </>
    ),
  },
  'staff-new-application': {
    subject: (data) => `New application A-${data.orderId} for ${data.petName}`,
    body: (data, context) => (
      <>
        <Heading as="h1">{`New application for ${data.petName}`}</Heading>
        <P>{`${data.adopterName} applied to adopt ${data.petName} on ${dateIn(context.store.timeZone, data.placedAt)} (A-${data.orderId}).`}</P>
        <Button
          href={`${context.siteUrl}/staff/applications/${data.orderId}`}
          style={{ backgroundColor: colors.accent, color: '#ffffff', padding: '12px 18px' }}
        >
          Open the application
        </Button>
      </>
    ),
  },
} satisfies Record<string, TTemplate>;

export type TMailTemplate = keyof typeof TEMPLATES;
/** The messages to adopters about their application (the others are to staff). */
export type TApplicationTemplate = Exclude<TMailTemplate, 'staff-new-application'>;

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
  const template: TTemplate = TEMPLATES[mail.template];
  const subject = template.subject(mail.data, context);
  const html = `${DOCTYPE}${renderToStaticMarkup(
    <Layout preview={subject} context={context}>
      {template.body(mail.data, context)}
    </Layout>,
  ).replace(IMAGE_PRELOAD, '')}`;
  return { subject, html, text: toPlainText(html) };
};

export const isMailTemplate = (value: string): value is TMailTemplate =>
  Object.hasOwn(TEMPLATES, value);
