'use client';

import { Share2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ButtonSlot } from './button-slot';

type TProps = { title: string; text: string; label?: string };

type TState = 'idle' | 'copied' | 'failed';

/**
 * "Share": the device's own share sheet where the browser has one (Web Share API, phones), else
 * the page's address copied to the clipboard with a spoken "Link copied". Shares the address the
 * visitor is on, so a shared list keeps its ids. Shown once script runs: without it, the address
 * bar is the way to share.
 */
export const ShareButton = ({ title, text, label = 'Share' }: TProps) => {
  const [isReady, setReady] = useState(false);
  const [state, setState] = useState<TState>('idle');
  useEffect(() => setReady(true), []);
  if (!isReady) {
    // Its room is kept (unseen) until it appears: the buttons beside and below it do not move.
    return <ButtonSlot icon={Share2}>{label}</ButtonSlot>;
  }
  const share = async () => {
    const url = window.location.href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') {
          return; // the visitor closed the sheet
        }
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="share">
      <button type="button" className="button button--secondary" onClick={share}>
        <Share2 aria-hidden="true" focusable="false" className="button__icon" />
        {label}
      </button>
      <span role="status" className="share__status">
        {state === 'copied'
          ? 'Link copied'
          : state === 'failed'
            ? 'Copy the address from the address bar to share'
            : ''}
      </span>
    </span>
  );
};
