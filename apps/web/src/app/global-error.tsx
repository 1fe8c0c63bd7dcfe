'use client';

import './globals.css';

/** Last resort, when even the layout failed: a plain page with the same message. */
const GlobalError = ({ retry }: { error: unknown; retry: () => void }) => (
  <html lang="en">
    <body>
      <main className="page">
        <section className="state" role="alert">
          <h1 className="state__title">Something went wrong on our side</h1>
          <p className="state__text">We couldn't load this page. Trying again usually helps.</p>
          <div className="state__actions">
            <button type="button" className="button" onClick={() => retry()}>
              Try again
            </button>
          </div>
        </section>
      </main>
    </body>
  </html>
);

export default GlobalError;
