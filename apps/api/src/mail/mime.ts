import { MAIL_CREDENTIAL_HEADER, MAIL_READER_HEADER, type TMailReader } from '@pets/contract/rules';
import { encode as encodeBase64, wrap as wrapBase64 } from 'nodemailer/lib/base64';
import MailComposer from 'nodemailer/lib/mail-composer';
import type MimeNode from 'nodemailer/lib/mime-node';
import { encode as encodeQuotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp';

/** A message as the worker hands it to a transport (mail-transport.ts). */
export type TMimeMail = {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Stable across retries, so a second copy is recognisably the same message. */
  messageId: string;
  date: Date;
  /** Header fields of its own (List-Unsubscribe, say). */
  headers?: Record<string, string>;
  /** Whom it is for: written as MAIL_READER_HEADER. */
  reader?: TMailReader;
  /** Whether it carries a credential: written as MAIL_CREDENTIAL_HEADER when it does. */
  credential?: boolean;
};

/**
 * The tree nodemailer composes for a message: multipart/alternative, plain text then HTML. Only
 * these fields are passed on: the composer reads many more (`raw`, `attachments`, ...).
 */
export const composeTree = (mail: TMimeMail): MimeNode =>
  new MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    date: mail.date,
    headers: {
      ...mail.headers,
      ...(mail.reader ? { [MAIL_READER_HEADER]: mail.reader } : {}),
      ...(mail.credential ? { [MAIL_CREDENTIAL_HEADER]: 'yes' } : {}),
    },
  }).compile();

/** A leaf's body in its transfer encoding, as nodemailer's encoder streams would write it. */
const bodyOf = (node: MimeNode, transferEncoding: string | false): string => {
  const { content } = node;
  if (content === undefined) {
    return '';
  }
  if (typeof content !== 'string' && !Buffer.isBuffer(content)) {
    // A stream, a file or a URL: never in our messages, which are rendered text.
    throw new Error('a message part must be text');
  }
  if (transferEncoding === 'quoted-printable') {
    return wrapQuotedPrintable(encodeQuotedPrintable(content), 76);
  }
  if (transferEncoding === 'base64') {
    return wrapBase64(encodeBase64(content), 76);
  }
  return content.toString();
};

/** A composed tree's MIME text (CRLF line ends), in one synchronous pass. */
export const serializeTree = (node: MimeNode): string => {
  // Headers first: they decide the node's `multipart` and boundary.
  const transferEncoding = node.getTransferEncoding();
  const head = `${node.buildHeaders()}\r\n\r\n`;
  if (!node.multipart) {
    return head + bodyOf(node, transferEncoding);
  }
  const parts = node.childNodes.map(
    (child, index) => `${index > 0 ? '\r\n' : ''}--${node.boundary}\r\n${serializeTree(child)}`,
  );
  return `${head}${bodyOf(node, transferEncoding)}${parts.join('')}\r\n--${node.boundary}--\r\n`;
};

/**
 * The message's MIME text (CRLF line ends), written in one synchronous pass over the tree that
 * nodemailer composes, with nodemailer's own header and body encoders: the same bytes as its
 * stream build (mime.test.ts holds that), without the stream pipeline per part, whose objects,
 * spread over a dozen turns of a loaded event loop, outlived young-generation collections and were
 * most of what placing orders promoted (bench/README.md, "The orders' mail, built in one pass").
 */
export const buildMessage = (mail: TMimeMail): string => serializeTree(composeTree(mail));
