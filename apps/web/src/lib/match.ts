import type { TPet } from '@pets/contract/schemas';
import type { TSavedSearchFilterInput } from '@pets/contract/site';

/**
 * "Find your match" (issue 28): which kind of animal, then six questions about a home, and the
 * rule that ranks animals by how well they fit it, with the reasons said per animal. One module,
 * so the page's explanation and the tests read the same rule:
 *
 * The kind comes first and narrows: only animals of the chosen kind (a category) are ranked; "any
 * kind", or no answer, ranks every kind together, and the page says so.
 *
 * Each answer is checked against what the store knows of an animal. A known fit ("good with cats")
 * adds to its score; a known clash ("best without cats: you have cats") is a concern; a detail
 * nobody knows yet ("not known yet: cats") is neither, but said. Animals without a concern come
 * first: those whose every asked detail is known, then those with unknowns; then the animals with a
 * concern. Within each group the higher score comes first, then the newest. Nothing is hidden: a
 * concern ranks an animal lower and says why.
 */

export const MATCH_HOMES = ['flat', 'garden', 'rural'] as const;
export const MATCH_CHILDREN = ['none', 'young', 'older'] as const;
export const MATCH_PETS = ['dogs', 'cats'] as const;
export const MATCH_TIMES = ['away', 'part', 'home'] as const;
export const MATCH_ACTIVITIES = ['calm', 'moderate', 'active'] as const;
export const MATCH_EXPERIENCES = ['first', 'some', 'experienced'] as const;

/** "Any kind": every category ranked together, said in words on the page. */
export const ANY_KIND = 'any';

export type TMatchAnswers = {
  /** The kind of animal: a category's id, or ANY_KIND; absent: not answered (every kind too). */
  kind?: number | typeof ANY_KIND;
  home?: (typeof MATCH_HOMES)[number];
  children?: (typeof MATCH_CHILDREN)[number];
  /** The animals already at home; empty: none (asked), absent: not answered. */
  pets?: (typeof MATCH_PETS)[number][];
  time?: (typeof MATCH_TIMES)[number];
  activity?: (typeof MATCH_ACTIVITIES)[number];
  experience?: (typeof MATCH_EXPERIENCES)[number];
};

export type TReasonKind = 'fit' | 'unknown' | 'concern';
export type TReason = { kind: TReasonKind; text: string };
export type TMatch = { pet: TPet; score: number; reasons: TReason[] };

type TMatchPet = Pick<
  TPet,
  | 'id'
  | 'age'
  | 'size'
  | 'energyLevel'
  | 'goodWithChildren'
  | 'goodWithDogs'
  | 'goodWithCats'
  | 'houseTrained'
  | 'specialNeeds'
>;

const FIT = 2;
const CONCERN = -3;

type TParams = Record<string, string | string[] | undefined>;

const firstOf = (params: TParams, name: string): string | undefined => {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
};

const pick = <T extends string>(options: readonly T[], value: string | undefined): T | undefined =>
  options.find((option) => option === value);

/**
 * The kind in the address: `any`, or a category's id (one of `kinds` when the caller knows them;
 * otherwise any id the API could know).
 */
const kindOf = (
  value: string | undefined,
  kinds: readonly number[] | undefined,
): TMatchAnswers['kind'] => {
  if (value === ANY_KIND) {
    return ANY_KIND;
  }
  const id = /^[1-9][0-9]{0,15}$/.test(value ?? '') ? Number(value) : undefined;
  return id !== undefined && (kinds === undefined || kinds.includes(id)) ? id : undefined;
};

/**
 * The answers kept in the address (`/match?kind=1&home=flat&children=young&pets=cats&...`),
 * leniently: a value not on offer counts as not answered (`kinds`: the categories' ids, when
 * known). `pets=none` says "no other animals".
 */
export const parseMatchAnswers = (params: TParams, kinds?: readonly number[]): TMatchAnswers => {
  const petsValues = params.pets === undefined ? undefined : [params.pets].flat();
  const pets =
    petsValues === undefined ? undefined : MATCH_PETS.filter((kind) => petsValues.includes(kind));
  const answers: TMatchAnswers = {
    kind: kindOf(firstOf(params, 'kind'), kinds),
    home: pick(MATCH_HOMES, firstOf(params, 'home')),
    children: pick(MATCH_CHILDREN, firstOf(params, 'children')),
    pets:
      pets !== undefined && (pets.length > 0 || petsValues?.includes('none')) ? pets : undefined,
    time: pick(MATCH_TIMES, firstOf(params, 'time')),
    activity: pick(MATCH_ACTIVITIES, firstOf(params, 'activity')),
    experience: pick(MATCH_EXPERIENCES, firstOf(params, 'experience')),
  };
  return Object.fromEntries(
    Object.entries(answers).filter(([, value]) => value !== undefined),
  ) as TMatchAnswers;
};

/** The canonical query string of the answers (with its `?`, or empty), in the questions' order. */
export const matchSearch = (answers: TMatchAnswers): string => {
  const params = new URLSearchParams();
  if (answers.kind !== undefined) {
    params.set('kind', String(answers.kind));
  }
  for (const name of ['home', 'children'] as const) {
    const value = answers[name];
    if (value) {
      params.set(name, value);
    }
  }
  if (answers.pets) {
    if (answers.pets.length === 0) {
      params.set('pets', 'none');
    }
    for (const kind of answers.pets) {
      params.append('pets', kind);
    }
  }
  for (const name of ['time', 'activity', 'experience'] as const) {
    const value = answers[name];
    if (value) {
      params.set(name, value);
    }
  }
  const search = params.toString();
  return search ? `?${search}` : '';
};

export const isAnswered = (answers: TMatchAnswers): boolean => Object.keys(answers).length > 0;

/** The category the answers narrow the animals to, if one kind was chosen. */
export const chosenCategoryId = (answers: TMatchAnswers): number | undefined =>
  typeof answers.kind === 'number' ? answers.kind : undefined;

/**
 * What "email me when a new animal matches" saves for a questionnaire: the answers that are
 * clear musts, as listPets filters (the kind chosen; children at home: good with children; a dog
 * or a cat at home: good with them). The rest only ranks, so it does not narrow the alert.
 */
export const matchAlertFilter = (
  answers: TMatchAnswers,
): Pick<
  TSavedSearchFilterInput,
  'categoryId' | 'goodWithChildren' | 'goodWithDogs' | 'goodWithCats'
> => ({
  ...(chosenCategoryId(answers) === undefined ? {} : { categoryId: chosenCategoryId(answers) }),
  ...(answers.children === 'young' || answers.children === 'older'
    ? { goodWithChildren: true }
    : {}),
  ...(answers.pets?.includes('dogs') ? { goodWithDogs: true } : {}),
  ...(answers.pets?.includes('cats') ? { goodWithCats: true } : {}),
});

/** One companion question: known good, known not, or not known; nothing when not asked. */
const companion = (value: boolean | null, words: string, yours: string): TReason => {
  if (value === true) {
    return { kind: 'fit', text: `Good with ${words}` };
  }
  if (value === false) {
    return { kind: 'concern', text: `Best without ${words}: ${yours}` };
  }
  return { kind: 'unknown', text: `Not known yet: how it is with ${words}` };
};

/** The reasons an animal fits the home or not, in the questions' order. */
export const reasonsFor = (pet: TMatchPet, answers: TMatchAnswers): TReason[] => {
  const reasons: TReason[] = [];
  if (answers.children === 'young' || answers.children === 'older') {
    reasons.push(
      companion(
        pet.goodWithChildren,
        'children',
        answers.children === 'young' ? 'you have young children' : 'you have children',
      ),
    );
  }
  if (answers.pets?.includes('dogs')) {
    reasons.push(companion(pet.goodWithDogs, 'dogs', 'you have a dog'));
  }
  if (answers.pets?.includes('cats')) {
    reasons.push(companion(pet.goodWithCats, 'cats', 'you have a cat'));
  }
  const isBig = pet.size === 'large' || pet.size === 'xlarge';
  if (answers.home === 'flat') {
    if (pet.energyLevel === 'high' || pet.size === 'xlarge') {
      reasons.push({ kind: 'concern', text: 'Needs a garden and room to run: you said a flat' });
    } else if (pet.size === 'small' || pet.energyLevel === 'low') {
      reasons.push({ kind: 'fit', text: 'Happy in a flat' });
    }
  } else if (answers.home && isBig) {
    reasons.push({ kind: 'fit', text: 'Has the room it needs: you have outdoor space' });
  }
  if (answers.activity) {
    const wanted = { calm: 'low', moderate: 'medium', active: 'high' } as const;
    if (pet.energyLevel === null) {
      reasons.push({ kind: 'unknown', text: 'Not known yet: how much exercise it needs' });
    } else if (pet.energyLevel === wanted[answers.activity]) {
      reasons.push({
        kind: 'fit',
        text:
          pet.energyLevel === 'high'
            ? 'Lively, like you'
            : pet.energyLevel === 'low'
              ? 'Calm, like your days'
              : 'Likes a walk and some play, as you do',
      });
    } else if (
      (pet.energyLevel === 'high' && answers.activity === 'calm') ||
      (pet.energyLevel === 'low' && answers.activity === 'active')
    ) {
      reasons.push({
        kind: 'concern',
        text:
          pet.energyLevel === 'high'
            ? 'Needs plenty of exercise: you said your days are calm'
            : 'Prefers a quiet life: you said you are very active',
      });
    }
  }
  if (answers.time === 'away' && (pet.age === 'baby' || pet.energyLevel === 'high')) {
    reasons.push({
      kind: 'concern',
      text: `${pet.age === 'baby' ? 'Young animals need' : 'A lively animal needs'} company most of the day: you said you are out most of it`,
    });
  } else if (answers.time === 'home' && pet.age === 'baby') {
    reasons.push({ kind: 'fit', text: 'Young, and you are at home to bring it up' });
  }
  if (answers.experience === 'first') {
    if (pet.specialNeeds === true) {
      reasons.push({ kind: 'concern', text: 'Has special needs: best with some experience' });
    }
    if (pet.houseTrained === true) {
      reasons.push({ kind: 'fit', text: 'House-trained: an easy start' });
    } else if (pet.houseTrained === false) {
      reasons.push({ kind: 'concern', text: 'Not house-trained yet: more work for a first pet' });
    }
  } else if (answers.experience === 'experienced' && pet.specialNeeds === true) {
    reasons.push({ kind: 'fit', text: 'Has special needs, and you have the experience' });
  }
  return reasons;
};

const WEIGHT: Record<TReasonKind, number> = { fit: FIT, unknown: 0, concern: CONCERN };

export const scoreOf = (reasons: readonly TReason[]): number =>
  reasons.reduce((total, reason) => total + WEIGHT[reason.kind], 0);

const tierOf = (reasons: readonly TReason[]): number =>
  reasons.some((reason) => reason.kind === 'concern')
    ? 2
    : reasons.some((reason) => reason.kind === 'unknown')
      ? 1
      : 0;

/**
 * The animals in the order of their fit: no concern before a concern, every asked detail known
 * before an unknown, then the score, then the newest. Every animal is in the result.
 */
export const rankMatches = <TAnimal extends TMatchPet>(
  pets: readonly TAnimal[],
  answers: TMatchAnswers,
): { pet: TAnimal; score: number; reasons: TReason[] }[] =>
  pets
    .map((pet) => {
      const reasons = reasonsFor(pet, answers);
      return { pet, reasons, score: scoreOf(reasons), tier: tierOf(reasons) };
    })
    .sort((a, b) => a.tier - b.tier || b.score - a.score || b.pet.id - a.pet.id)
    .map(({ pet, score, reasons }) => ({ pet, score, reasons }));

/**
 * What was ranked, in words: every available animal (of the chosen kind: `kind`, its plural in
 * lower case, "dogs"), or, when there are more than one page (`hasMore`), the newest of them and
 * how many there are when the API counted them (`total`).
 */
export const rankedSummary = (
  ranked: number,
  hasMore: boolean,
  total?: number,
  kind?: string,
): string => {
  const animals = kind ?? 'animals';
  if (hasMore) {
    return total === undefined
      ? `We ranked the ${ranked} newest ${animals} available for adoption; there are more.`
      : `We ranked the ${ranked} newest of the ${total} ${animals} available for adoption.`;
  }
  if (ranked === 1) {
    return kind === undefined
      ? 'We ranked the one animal available for adoption.'
      : `We ranked the only one of the ${kind} available for adoption.`;
  }
  return `We ranked all ${ranked} ${animals} available for adoption.`;
};

/**
 * What the kind question did, when it did not narrow: "any kind" chosen, or left unanswered. Said
 * on the page so nobody wonders why a fish ranks beside a dog.
 */
export const everyKindSummary = (answers: TMatchAnswers): string | undefined => {
  if (answers.kind === ANY_KIND) {
    return 'You chose any kind of animal, so every kind is ranked together. Choose one above to see only dogs, only cats, and so on.';
  }
  return answers.kind === undefined
    ? 'You did not say which kind of animal, so every kind is ranked together. Choose one above to see only dogs, only cats, and so on.'
    : undefined;
};
