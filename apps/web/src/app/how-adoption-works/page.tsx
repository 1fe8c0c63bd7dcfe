import { FileText, Handshake, House, Users } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { Panel } from '@/components/panel';
import { StoreVisit } from '@/components/store-visit';
import { storeConfig } from '@/env';

export const metadata: Metadata = {
  title: 'How adoption works',
  description: 'The steps from applying to taking an animal home, the fee, and what to bring.',
};

/**
 * How adopting goes, for someone who is still deciding: the steps, the fee and what to bring. Words
 * only, from configuration (STORE_REPLY_DAYS, STORE_ADOPTION_FEE, the store's contact); no call to
 * the API, so it shows even when the catalogue cannot.
 */
const HowAdoptionWorksPage = async () => {
  await connection(); // the store's details are read at run time
  const { name, replyDays, adoptionFee, openingHours } = storeConfig();
  const days = `${replyDays} working ${replyDays === 1 ? 'day' : 'days'}`;
  return (
    <div className="narrow">
      <div className="page-intro">
        <h1 className="page-title">How adoption works</h1>
        <p className="lead">
          Adopting from {name} takes four steps. Applying is free and commits you to nothing:
          nothing is final until you have met the animal.
        </p>
      </div>

      <Panel id="steps" title="The steps">
        <ol className="steps">
          <li className="steps__item">
            <FileText aria-hidden="true" focusable="false" className="steps__icon" />
            <span>
              <strong>You apply.</strong> Choose an animal, press &ldquo;Apply to adopt&rdquo; and
              tell us who you are, how to reach you and a few words about your home.
            </span>
          </li>
          <li className="steps__item">
            <Users aria-hidden="true" focusable="false" className="steps__icon" />
            <span>
              <strong>We review.</strong> Several people may apply for the same animal, and we read
              every application. Within {days} our staff choose the home that suits the animal best
              and tell everyone by email: the family we chose, and everyone else, kindly.
            </span>
          </li>
          <li className="steps__item">
            <Handshake aria-hidden="true" focusable="false" className="steps__icon" />
            <span>
              <strong>You visit.</strong> Come and meet the animal at the store, with everyone who
              will live with them. Opening hours: {openingHours}.
            </span>
          </li>
          <li className="steps__item">
            <House aria-hidden="true" focusable="false" className="steps__icon" />
            <span>
              <strong>You take them home.</strong> If it is a good match, we agree the day with you,
              you sign the adoption agreement and your new companion goes home with you.
            </span>
          </li>
        </ol>
      </Panel>

      <Panel id="fee" title="The fee">
        <p className="how__fee">{adoptionFee}</p>
        <p className="lead">
          You pay it on the day you take your animal home, not when you apply. It helps us care for
          the animals still waiting.
        </p>
      </Panel>

      <Panel id="bring" title="What to bring">
        <ul className="how__list">
          <li>Photo identification, such as a passport or a driving licence.</li>
          <li>Proof of your address, such as a recent bill or bank statement.</li>
          <li>If you rent: your landlord&apos;s agreement that you may keep a pet.</li>
          <li>A carrier for a cat, a rabbit or a bird; a collar and lead for a dog.</li>
          <li>Your application&apos;s reference, such as A-12, from your confirmation.</li>
        </ul>
      </Panel>

      <p className="pet__actions">
        <Link href="/" className="button">
          Meet the animals
        </Link>
      </p>

      <StoreVisit heading="Questions? Talk to us" />
    </div>
  );
};

export default HowAdoptionWorksPage;
