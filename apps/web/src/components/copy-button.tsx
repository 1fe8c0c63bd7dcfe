'use client';

import { Copy } from 'lucide-react';
import { useEffect, useState } from 'react';

type TState = 'idle' | 'copied' | 'failed';

/**
 * Copies the text of the element `targetId` to the clipboard, saying so for screen readers.
 * Shown once script runs: without it, the text itself stays selectable. Reads the text from the
 * page, so the secret is never a prop (nor in the page's script payload twice).
 */
export const CopyButton = ({ targetId, label = 'Copy' }: { targetId: string; label?: string }) => {
  const [isReady, setReady] = useState(false);
  const [state, setState] = useState<TState>('idle');
  useEffect(() => setReady(true), []);
  if (!isReady) {
    return null;
  }
  const copy = async () => {
    const text = document.getElementById(targetId)?.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="share">
      <button type="button" className="button button--secondary button--small" onClick={copy}>
        <Copy aria-hidden="true" focusable="false" className="button__icon" />
        {label}
      </button>
      <span role="status" className="share__status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select the key and copy it' : ''}
      </span>
    </span>
  );
};
