import { savedSearchInWords } from '@pets/contract/rules';
import type { TCategory } from '@pets/contract/schemas';
import { CircleAlert, CircleCheck, CircleHelp, type LucideIcon, PawPrint } from 'lucide-react';
import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { MatchForm } from '@/components/match-form';
import { PageIntro } from '@/components/page-intro';
import { PetCard } from '@/components/pet-card';
import { SavedSearchForm } from '@/components/saved-search-form';
import { StatePanel } from '@/components/state-panel';
import { listCategories, listPets } from '@/lib/api';
import {
  chosenCategoryId,
  everyKindSummary,
  isAnswered,
  matchAlertFilter,
  matchSearch,
  parseMatchAnswers,
  rankedSummary,
  rankMatches,
  type TMatch,
  type TMatchAnswers,
  type TReasonKind,
} from '@/lib/match';
import { matchPetHref } from '@/lib/pet-links';
import type { TPetsPage } from '@/lib/pets-page';

export const metadata: Metadata = {
  title: 'Find your match',
  description:
    'Which kind of animal, six questions about your home, and the animals available for adoption ranked by how well they would fit it, with the reasons.',
};

/**
 * The animals ranked: the available ones, one listPets page of MATCH_CANDIDATES, newest first
 * (docs/decisions.md, "Find your match ranks the newest hundred").
 */
const MATCH_CANDIDATES = 100;

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const REASON_ICONS: Record<TReasonKind, LucideIcon> = {
  fit: CircleCheck,
  unknown: CircleHelp,
  concern: CircleAlert,
};

/** Why an animal is where it is, in words; the icon beside each only repeats them. */
const Reasons = ({ match }: { match: TMatch }) =>
  match.reasons.length === 0 ? (
    <p className="match__reason match__reason--none">Nothing in your answers for or against</p>
  ) : (
    <ul className="match__reasons" aria-label={`Why ${match.pet.name}`}>
      {match.reasons.map((reason) => {
        const Icon = REASON_ICONS[reason.kind];
        return (
          <li key={reason.text} className={`match__reason match__reason--${reason.kind}`}>
            <Icon aria-hidden="true" focusable="false" className="match__reason-icon" />
            <span>{reason.text}</span>
          </li>
        );
      })}
    </ul>
  );

/** What was ranked, in words (`kind`: the chosen kind's plural), and where the others are. */
const CandidatesSummary = ({ page, kind }: { page: TPetsPage; kind: string | undefined }) => (
  <p className="results__summary">
    {rankedSummary(page.pets.length, page.nextCursor !== undefined, page.total, kind)}
    {page.nextCursor ? (
      <>
        {' '}
        <Link href="/">See the others on the Browse page</Link>
      </>
    ) : null}
  </p>
);

type TResultsProps = { page: TPetsPage; categories: TCategory[]; answers: TMatchAnswers };

const Results = ({ page, categories, answers }: TResultsProps) => {
  const names = new Map(categories.map((category) => [category.id, category.name]));
  const chosen = chosenCategoryId(answers);
  const kind = chosen === undefined ? undefined : names.get(chosen)?.toLowerCase();
  const everyKind = everyKindSummary(answers);
  if (page.pets.length === 0) {
    return kind ? (
      <StatePanel icon={PawPrint} title={`No ${kind} are waiting for a home`} role="status">
        <p>
          None of the {kind} is available for adoption right now. Choose another kind above, or any
          kind; new arrivals come in every week.
        </p>
      </StatePanel>
    ) : (
      <StatePanel icon={PawPrint} title="Every animal has found a home" role="status">
        <p>No animal is waiting for adoption right now. New arrivals come in every week.</p>
      </StatePanel>
    );
  }
  // Every candidate, best fit first: rankMatches hides nobody.
  const matches = rankMatches(page.pets, answers);
  const search = matchSearch(answers);
  return (
    <>
      {everyKind ? <p className="results__summary">{everyKind}</p> : null}
      <CandidatesSummary page={page} kind={kind} />
      <ol className="grid match__grid" aria-label="Animals, best fit first">
        {matches.map((match, index) => (
          <PetCard
            key={match.pet.id}
            pet={match.pet}
            categoryName={names.get(match.pet.categoryId)}
            href={matchPetHref(match.pet.id, search)}
            isPriority={index === 0 ? 'high' : index < 4}
            heading="h3"
          >
            <Reasons match={match} />
          </PetCard>
        ))}
      </ol>
    </>
  );
};

const MatchPage = async ({ searchParams }: TProps) => {
  await connection(); // rendered per request: it reads the API
  // The categories first: the kind question offers them, and the answers are read against them.
  const [categories, params] = await Promise.all([listCategories(), searchParams]);
  const answers = parseMatchAnswers(
    params,
    categories.ok ? categories.data.map((category) => category.id) : undefined,
  );
  const isAsked = isAnswered(answers);
  const categoryId = chosenCategoryId(answers);
  const page = isAsked
    ? await listPets({
        status: 'available',
        limit: MATCH_CANDIDATES,
        include: 'total_count',
        ...(categoryId === undefined ? {} : { categoryId }),
      })
    : undefined;
  const retryHref = `/match${matchSearch(answers)}`;
  return (
    <>
      <PageIntro title="Find your match">
        Tell us which kind of animal you are looking for and about your home, and we will rank the
        animals waiting for one by how well they would fit it, saying why for each. Answer as many
        questions as you like.
      </PageIntro>
      <div className="match">
        {/* Keyed by the answers: a link to other answers (Start again) shows them, not the last ones. */}
        <MatchForm
          key={matchSearch(answers)}
          answers={answers}
          categories={categories.ok ? categories.data : []}
        />
        <section aria-labelledby="match-rule" className="match__rule">
          <h2 id="match-rule" className="match__rule-title">
            How we rank
          </h2>
          <p>
            Only animals of the kind you choose are ranked (any kind: all of them together). Each
            other answer is checked against what our staff know of each animal. A known fit (good
            with cats when you have one, happy in a flat) counts for it; a known clash (best without
            cats when you have one, lively when your days are calm) is a concern, said in words on
            its card; a detail nobody has found out yet is said too, and counts neither way. Animals
            with no concern come first, those we know everything asked about before those with
            unknowns; then the animals with a concern. Within each group, more fits come first, then
            the newest. Nobody is hidden: an animal with a concern is further down, with the reason.
          </p>
        </section>
      </div>
      {page ? (
        <section aria-labelledby="matches" className="results match__results">
          <h2 id="matches" className="match__results-title" tabIndex={-1}>
            Your matches
          </h2>
          {!page.ok ? (
            <ApiFailure failure={page.failure} retryHref={retryHref} />
          ) : !categories.ok ? (
            <ApiFailure failure={categories.failure} retryHref={retryHref} />
          ) : (
            <Results page={page.data} categories={categories.data} answers={answers} />
          )}
        </section>
      ) : null}
      {page?.ok && categories.ok ? (
        <SavedSearchForm
          filter={matchAlertFilter(answers)}
          summary={savedSearchInWords(
            matchAlertFilter(answers),
            (id) => categories.data.find((category) => category.id === id)?.name,
          )}
        />
      ) : null}
    </>
  );
};

export default MatchPage;
