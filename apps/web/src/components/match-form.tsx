import type { TCategory } from '@pets/contract/schemas';
import { Search } from 'lucide-react';
import Link from 'next/link';
import {
  ANY_KIND,
  type MATCH_ACTIVITIES,
  type MATCH_CHILDREN,
  type MATCH_EXPERIENCES,
  type MATCH_HOMES,
  type MATCH_PETS,
  type MATCH_TIMES,
  type TMatchAnswers,
} from '@/lib/match';

/** The questions' words: what each answer says to the visitor (the values are match.ts'). */
const HOME_LABELS: Record<(typeof MATCH_HOMES)[number], string> = {
  flat: 'A flat or apartment',
  garden: 'A house with a garden',
  rural: 'In the country, with plenty of space',
};
const CHILDREN_LABELS: Record<(typeof MATCH_CHILDREN)[number], string> = {
  none: 'No children',
  young: 'Young children (under 6)',
  older: 'Older children (6 and up)',
};
const PETS_LABELS: Record<(typeof MATCH_PETS)[number] | 'none', string> = {
  dogs: 'A dog',
  cats: 'A cat',
  none: 'No other animals',
};
const TIME_LABELS: Record<(typeof MATCH_TIMES)[number], string> = {
  away: 'Out most of the day',
  part: 'Out part of the day',
  home: 'Home most of the day',
};
const ACTIVITY_LABELS: Record<(typeof MATCH_ACTIVITIES)[number], string> = {
  calm: 'Calm: short walks and quiet evenings',
  moderate: 'Some: a daily walk and some play',
  active: 'Very active: long walks, runs, hikes',
};
const EXPERIENCE_LABELS: Record<(typeof MATCH_EXPERIENCES)[number], string> = {
  first: 'This would be my first pet',
  some: 'I have had a pet before',
  experienced: 'I have a lot of experience',
};

type TQuestion = {
  name: 'home' | 'children' | 'time' | 'activity' | 'experience';
  legend: string;
  labels: Record<string, string>;
};

/** The questions with one answer, in match.ts' order around the other animals (several answers). */
const BEFORE_PETS: TQuestion[] = [
  { name: 'home', legend: 'Where do you live?', labels: HOME_LABELS },
  { name: 'children', legend: 'Children at home?', labels: CHILDREN_LABELS },
];
const AFTER_PETS: TQuestion[] = [
  { name: 'time', legend: 'How much are you at home?', labels: TIME_LABELS },
  { name: 'activity', legend: 'How active are your days?', labels: ACTIVITY_LABELS },
  { name: 'experience', legend: 'Your experience with animals', labels: EXPERIENCE_LABELS },
];

const OneAnswer = ({ question, answers }: { question: TQuestion; answers: TMatchAnswers }) => (
  <fieldset className="field match__question">
    <legend className="field__label">{question.legend}</legend>
    <div className="choices match__choices">
      {Object.entries(question.labels).map(([value, label]) => (
        <label key={value} className="choice">
          <input
            type="radio"
            name={question.name}
            value={value}
            defaultChecked={answers[question.name] === value}
            className="choice__input"
          />
          {label}
        </label>
      ))}
    </div>
  </fieldset>
);

/**
 * The first question: which kind of animal (the store's categories, or any kind). Without the
 * categories (the API did not answer) it is left out, and every kind is ranked.
 */
const KindQuestion = ({
  categories,
  answers,
}: {
  categories: readonly TCategory[];
  answers: TMatchAnswers;
}) =>
  categories.length === 0 ? null : (
    <fieldset className="field match__question">
      <legend className="field__label">Which kind of animal are you looking for?</legend>
      <div className="choices match__choices">
        {[
          ...categories.map((category) => ({ value: String(category.id), label: category.name })),
          { value: ANY_KIND, label: 'Any kind' },
        ].map(({ value, label }) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name="kind"
              value={value}
              defaultChecked={answers.kind !== undefined && String(answers.kind) === value}
              className="choice__input"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );

type TMatchFormProps = { answers: TMatchAnswers; categories: readonly TCategory[] };

/**
 * The questions of "Find your match", the kind of animal first, a plain GET form: its answers
 * become the page's address (match.ts' `parseMatchAnswers` reads them), so it works without
 * JavaScript and a reload or a shared link shows the same matches. Every question may be left
 * out; the results follow the form (`#matches`).
 */
export const MatchForm = ({ answers, categories }: TMatchFormProps) => (
  <form method="get" action="/match#matches" className="form match__form" aria-label="Your home">
    <KindQuestion categories={categories} answers={answers} />
    {BEFORE_PETS.map((question) => (
      <OneAnswer key={question.name} question={question} answers={answers} />
    ))}
    <fieldset className="field match__question">
      <legend className="field__label">Other animals at home?</legend>
      <p className="field__hint">Choose all that apply.</p>
      <div className="choices match__choices">
        {(['dogs', 'cats', 'none'] as const).map((value) => (
          <label key={value} className="choice">
            <input
              type="checkbox"
              name="pets"
              value={value}
              defaultChecked={
                value === 'none'
                  ? answers.pets !== undefined && answers.pets.length === 0
                  : answers.pets?.includes(value)
              }
              className="choice__input"
            />
            {PETS_LABELS[value]}
          </label>
        ))}
      </div>
    </fieldset>
    {AFTER_PETS.map((question) => (
      <OneAnswer key={question.name} question={question} answers={answers} />
    ))}
    <div className="form__actions match__actions">
      <button type="submit" className="button">
        <Search aria-hidden="true" focusable="false" className="button__icon" />
        <span>Show my matches</span>
      </button>
      {Object.keys(answers).length > 0 ? (
        <Link href="/match" className="match__again">
          Start again
        </Link>
      ) : null}
    </div>
  </form>
);
