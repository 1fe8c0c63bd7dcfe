/**
 * The part of html-to-text (no type definitions of its own) that the mail templates use: a
 * converter compiled once from its options (https://github.com/html-to-text/node-html-to-text).
 */
declare module 'html-to-text' {
  export type TSelector = {
    selector: string;
    format?: string;
    options?: Record<string, unknown>;
  };
  export const compile: (options: {
    wordwrap?: number | false;
    selectors?: readonly TSelector[];
  }) => (html: string) => string;
}
