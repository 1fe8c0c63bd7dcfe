import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';

/**
 * A visitor without a browser, as an attacker scripts one: plain HTTP from a loopback address of
 * its own (127.0.0.N: a different visitor to the site), a cookie jar, and forms posted exactly as
 * a browser without JavaScript posts them (multipart, with the form's hidden `$ACTION_*` fields).
 */
export type TAnswer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  location: string | undefined;
};

export type TForm = { path: string; fields: [string, string][] };

const decode = (text: string): string =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : decode(match[1]);
};

/** The fields of every form of a page, in order, as a browser would send them. */
export const formsOf = (html: string, path: string): TForm[] =>
  [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/g)].map((form) => {
    const fields: [string, string][] = [];
    for (const input of (form[1] ?? '').matchAll(
      /<input\b[^>]*>|<textarea\b[^>]*>([\s\S]*?)<\/textarea>/g,
    )) {
      const tag = input[0];
      const name = attribute(tag, 'name');
      if (!name) {
        continue;
      }
      fields.push([
        name,
        tag.startsWith('<textarea') ? decode(input[1] ?? '') : (attribute(tag, 'value') ?? ''),
      ]);
    }
    return { path, fields };
  });

const multipart = (fields: [string, string][]): { body: Buffer; contentType: string } => {
  const boundary = `----scripted${randomBytes(8).toString('hex')}`;
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
};

export class ScriptedVisitor {
  readonly cookies = new Map<string, string>();

  /** `headers`: sent with every request (an X-Forwarded-For, as a proxy would add it). */
  constructor(
    readonly siteUrl: string,
    readonly address: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  request(
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
  ): Promise<TAnswer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    // The target exactly as written: a URL string would have Node remove dot segments first,
    // and an attacker's spelling (`/_next/../x`) would never reach the site.
    const { hostname, port } = new URL(this.siteUrl);
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        {
          hostname,
          port,
          path,
          method: options.method ?? 'GET',
          localAddress: this.address,
          headers: { ...this.headers, ...(cookie ? { cookie } : {}), ...options.headers },
        },
        (response) => {
          for (const line of response.headers['set-cookie'] ?? []) {
            const [pair = ''] = line.split(';');
            const [name = '', ...value] = pair.split('=');
            if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) {
              this.cookies.delete(name.trim());
            } else {
              this.cookies.set(name.trim(), value.join('='));
            }
          }
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body,
              location: response.headers.location,
            }),
          );
        },
      );
      request.on('error', reject);
      request.end(options.body);
    });
  }

  /** The form of the page at `path` that has a field named `field`. */
  async form(path: string, field: string): Promise<TForm> {
    const page = await this.request(path);
    const form = formsOf(page.body, path).find((each) =>
      each.fields.some(([name]) => name === field),
    );
    if (!form) {
      throw new Error(`No form with a "${field}" field at ${path} (status ${page.status}).`);
    }
    return form;
  }

  /**
   * Posts `form` with `values` in place of its fields' values, with `Origin: origin` (the site's
   * own by default; null: no Origin header, as a script sends it).
   */
  submit(
    form: TForm,
    values: Record<string, string> = {},
    origin: string | null = this.siteUrl,
  ): Promise<TAnswer> {
    const fields = form.fields.map(([name, value]): [string, string] => [
      name,
      values[name] ?? value,
    ]);
    const { body, contentType } = multipart(fields);
    return this.request(form.path, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(origin === null ? {} : { origin }) },
      body,
    });
  }
}

let nextHost = 40;
/** A loopback address no other test of the run has used: a new visitor. */
export const newVisitorAddress = (): string => {
  nextHost += 1;
  return `127.0.${Math.floor(nextHost / 250)}.${(nextHost % 250) + 2}`;
};
