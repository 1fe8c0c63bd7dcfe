import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { renderMail } from './mail-templates';
import { buildMessage, composeTree, serializeTree, type TMimeMail } from './mime';

/**
 * The one-pass build writes what nodemailer's own stream build writes for the same tree, byte for
 * byte, for every shape our messages take: a rendered template, words outside ASCII in the
 * subject and the body (quoted-printable), a body mostly outside Latin script (base64), a line too
 * long for the wire, our own header fields. A mail client reads it back as it was written.
 */

const context = {
  store: {
    name: 'Pet Store',
    address: '1 High Street, Bristol',
    openingHours: 'Tuesday to Sunday, 10:00-17:00',
    phone: '+44 117 496 0000',
    email: 'hello@petstore.example',
    timeZone: 'Europe/London',
  },
  siteUrl: 'https://adopt.example',
  statusUrl: (orderId: number) =>
    `https://adopt.example/applications/${orderId}?t=abcdef0123456789`,
  accountUrl: () => 'https://adopt.example/account/verify?t=0123',
  savedSearchUrl: () => 'https://adopt.example/searches/confirm?t=4567',
};

const base: TMimeMail = {
  from: 'Pet Store <hello@petstore.example>',
  to: 'ada@example.org',
  subject: 'We have your application',
  html: '<p>Hello</p>',
  text: 'Hello',
  messageId: '<mail-7.1795716778832@adopt.example>',
  date: new Date('2026-07-01T09:30:00.000Z'),
};

const cases: [string, () => Promise<TMimeMail>][] = [
  [
    'a rendered template',
    async () => ({
      ...base,
      ...(await renderMail(
        {
          template: 'application-received',
          data: {
            orderId: 7,
            petId: 42,
            petName: 'Biscuit',
            adopterName: 'Ada Lovelace',
            placedAt: '2026-07-01T09:30:00.000Z',
          },
        },
        context,
      )),
    }),
  ],
  [
    'words outside ASCII in the subject, the names and the body',
    async () => ({
      ...base,
      from: 'Café Zoë <hello@petstore.example>',
      to: 'Renée Ø <renee@example.org>',
      subject: 'Zoë’s application for Élodie – 🐶 approved',
      html: '<p>Bonjour Renée, Élodie vous attend · à bientôt 🐾</p>',
      text: 'Bonjour Renée, Élodie vous attend · à bientôt 🐾',
    }),
  ],
  [
    'a body mostly outside Latin script',
    async () => ({
      ...base,
      subject: 'ビスケットへの申し込み',
      html: '<p>ビスケットへの申し込みを受け付けました。ありがとうございます。</p>',
      text: 'ビスケットへの申し込みを受け付けました。ありがとうございます。',
    }),
  ],
  [
    'a line longer than the wire allows, and trailing spaces',
    async () => ({
      ...base,
      html: `<p>${'x'.repeat(300)}</p>\n<p>${'word '.repeat(60)}</p>`,
      text: `${'y'.repeat(200)} \nend of line   \n${'a=b '.repeat(40)}`,
    }),
  ],
  [
    'header fields of its own',
    async () => ({
      ...base,
      headers: {
        'List-Unsubscribe': '<https://adopt.example/searches/unsubscribe?t=89ab>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    }),
  ],
];

describe('the one-pass build', () => {
  it.each(cases)('writes what nodemailer streams: %s', async (_name, make) => {
    const mail = await make();
    const tree = composeTree(mail);
    const ours = serializeTree(tree);
    const theirs = (await tree.build()).toString();
    expect(ours).toBe(theirs);
  });

  it.each(cases)('reads back as it was written: %s', async (_name, make) => {
    const mail = await make();
    const parsed = await simpleParser(buildMessage(mail));
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.messageId).toBe(mail.messageId);
    expect(parsed.date?.toISOString()).toBe(mail.date.toISOString());
    expect(parsed.text?.trimEnd()).toBe(mail.text.trimEnd());
    expect(parsed.html).toBe(mail.html);
    for (const [key, value] of Object.entries(mail.headers ?? {})) {
      expect(parsed.headerLines).toContainEqual({
        key: key.toLowerCase(),
        line: `${key}: ${value}`,
      });
    }
  });
});
