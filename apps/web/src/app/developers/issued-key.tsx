import type { TIssuedOrgKey } from '@pets/contract/site';
import { TriangleAlert } from 'lucide-react';
import Link from 'next/link';
import { CopyButton } from '@/components/copy-button';

const KEY_TEXT_ID = 'issued-key';

/**
 * A key just created or rolled, in plain text this once: a monospace box whose text stays
 * selectable without JavaScript, a copy button, and the warning. The portal never has it again.
 */
export const IssuedKey = ({ issued, heading }: { issued: TIssuedOrgKey; heading: string }) => (
  <section className="issued-key" aria-labelledby="issued-key-heading">
    <h2 id="issued-key-heading">{heading}</h2>
    <p className="issued-key__warning">
      <TriangleAlert aria-hidden="true" focusable="false" className="button__icon" />
      <span>
        <strong>You won't see this key again.</strong> Copy it now and keep it somewhere safe, such
        as your app's secret settings; never in its code or in a browser.
      </span>
    </p>
    <p className="issued-key__box">
      <code id={KEY_TEXT_ID} className="issued-key__text">
        {issued.key}
      </code>
    </p>
    <CopyButton targetId={KEY_TEXT_ID} label="Copy the key" />
    <p>
      Name: {issued.apiKey.name} · {issued.apiKey.mode === 'live' ? 'Live' : 'Test'} ·{' '}
      {issued.apiKey.readOnly ? 'Read-only' : 'Read and write'}. Send it as{' '}
      <code>Authorization: Bearer &lt;key&gt;</code>.
    </p>
    <p>
      <Link href="/developers/keys">Back to your keys</Link>
    </p>
  </section>
);
