import { formatStoreInstant } from '@pets/contract/store';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';
import type { TMailContext } from './mail-templates';

/**
 * The pieces every email is written with: the templates of mail-templates.tsx and those in a file
 * of their own (templates/) share them, so each message looks and reads like the others.
 */

/** One message: its subject, its body (React, rendered to HTML and text) and its own headers. */
export type TTemplate<TData> = {
  subject: (data: TData, context: TMailContext) => string;
  body: (data: TData, context: TMailContext) => ReactNode;
  headers?: (data: TData, context: TMailContext) => Record<string, string>;
};

/** "1 July 2026, 10:30 BST": on the store's clock, with its zone, as the site shows it. */
export const dateIn = (timeZone: string, instant: string): string =>
  formatStoreInstant(instant, timeZone, { month: 'long' });

export const colors = { ink: '#1f2a24', muted: '#5b6660', accent: '#2f6b4f', paper: '#fbf8f3' };

export const P = ({ children }: { children: ReactNode }) => (
  <Text style={{ fontSize: '16px', lineHeight: '24px' }}>{children}</Text>
);

export const buttonStyle = {
  backgroundColor: colors.accent,
  color: '#ffffff',
  padding: '12px 18px',
};
