import { CircleCheck, CircleDot, CircleX, Home, Hourglass, Mail } from 'lucide-react';
import Link from 'next/link';
import type { TApplicationView } from '@/lib/application-view';

const STEP_ICONS = {
  unconfirmed: Mail,
  placed: CircleDot,
  waitlisted: Hourglass,
  approved: CircleCheck,
  declined: CircleX,
  completed: Home,
  cancelled: CircleX,
} as const;

/**
 * One application as its adopter sees it: where it stands, the store's words if it declined, and
 * each step so far. Focusable title, so a form that shows it can move focus there.
 */
export const ApplicationCard = ({ application }: { application: TApplicationView }) => (
  <section className="panel" aria-labelledby="application-title">
    <h2 id="application-title" className="panel__title" tabIndex={-1}>
      Application {application.reference}
      {application.petName ? ` to adopt ${application.petName}` : ''}
    </h2>
    <p className="lead">{application.summary}</p>
    {application.declined ? (
      <div className="notice">
        <p>{application.declined.reason}</p>
        {application.declined.note ? (
          <p>
            The store wrote: <q className="application__note">{application.declined.note}</q>
          </p>
        ) : null}
      </div>
    ) : null}
    <ol className="steps" aria-label="Progress">
      {application.steps.map((step) => {
        const Icon = STEP_ICONS[step.status];
        return (
          <li key={`${step.status}-${step.at}`} className="steps__item">
            <Icon aria-hidden="true" focusable="false" className="steps__icon" />
            <span>
              {step.title}
              <time dateTime={step.at} className="steps__when">
                {step.when}
              </time>
            </span>
          </li>
        );
      })}
    </ol>
    <p className="pet__actions">
      <Link href={`/pets/${application.petId}`}>
        See {application.petName ?? 'the animal'}&apos;s page
      </Link>
    </p>
  </section>
);
