import type { PrismaClient } from './generated/prisma/client.js';
import type {
  PetAge,
  PetCoatLength,
  PetColor,
  PetEnergyLevel,
  PetSex,
  PetSize,
  PetStatus,
} from './generated/prisma/enums.js';

/**
 * Demo content of an adoption store: its categories and a few dozen animals, each with a profile
 * (no photos: none are taken from elsewhere; the site shows its category's illustration).
 * Idempotent: a category is added when no category has its name, an animal when its category has
 * no animal of that name, so running it again adds nothing. An animal seeded before profiles
 * existed (every profile field empty) gets its profile.
 */

type TSeedPet = {
  name: string;
  status: PetStatus;
  /** The profile, so the demo store shows what adopters choose by. */
  sex: PetSex;
  age: PetAge;
  size: PetSize;
  breed: string;
  /** `YYYY-MM-DD`. */
  arrivedAt: string;
  description: string;
};

const pet = (
  name: string,
  status: PetStatus,
  [sex, age, size]: [PetSex, PetAge, PetSize],
  breed: string,
  arrivedAt: string,
  description: string,
): TSeedPet => ({ name, status, sex, age, size, breed, arrivedAt, description });

export const SEED_CATALOGUE: Record<string, TSeedPet[]> = {
  Dogs: [
    pet(
      'Biscuit',
      'available',
      ['male', 'young', 'medium'],
      'Beagle mix',
      '2026-03-03',
      'Biscuit follows his nose everywhere and his heart follows you. He walks nicely on a lead, loves a game of fetch and ends every day curled up by your feet.',
    ),
    pet(
      'Luna',
      'available',
      ['female', 'adult', 'large'],
      'Labrador Retriever',
      '2026-08-14',
      'Luna is a gentle, patient girl who adores children and long walks by the water. She already knows sit, stay and paw, and would love a garden to doze in.',
    ),
    pet(
      'Max',
      'pending',
      ['male', 'baby', 'small'],
      'Jack Russell Terrier',
      '2026-10-02',
      'Max is a bundle of puppy energy with a big heart. He is learning his manners quickly and thinks every visitor is a new best friend.',
    ),
    pet(
      'Bella',
      'sold',
      ['female', 'senior', 'medium'],
      'Spaniel mix',
      '2026-01-19',
      'Bella is a calm, wise old lady who loves a soft bed, a short stroll and a quiet evening. She has found her retirement home.',
    ),
    pet(
      'Rocky',
      'available',
      ['male', 'adult', 'xlarge'],
      'Great Dane',
      '2026-06-27',
      'Rocky is a gentle giant who has no idea how big he is. He leans in for cuddles, is polite with other dogs and needs a home with room to stretch out.',
    ),
    pet(
      'Daisy',
      'available',
      ['female', 'young', 'small'],
      'Cavalier King Charles Spaniel',
      '2026-09-11',
      'Daisy is sweet and a little shy at first. Once she trusts you she will follow you from room to room, tail wagging, hoping for a lap to sit on.',
    ),
    pet(
      'Otis',
      'sold',
      ['male', 'adult', 'medium'],
      'Border Collie',
      '2025-12-05',
      'Otis is clever, keen and happiest with a job to do. He has gone to a family who love long hikes as much as he does.',
    ),
  ],
  Cats: [
    pet(
      'Mochi',
      'available',
      ['female', 'young', 'small'],
      'Domestic shorthair',
      '2026-07-21',
      'Mochi is a playful tabby who chases every feather toy and then falls asleep in the sunniest spot of the room. She would do well as an only cat.',
    ),
    pet(
      'Oliver',
      'available',
      ['male', 'adult', 'medium'],
      'British Shorthair',
      '2026-05-30',
      'Oliver is a calm, round-faced gentleman who likes a predictable day: breakfast, a nap, a chin scratch and another nap.',
    ),
    pet(
      'Cleo',
      'pending',
      ['female', 'senior', 'small'],
      'Siamese',
      '2026-02-12',
      'Cleo is a chatty senior who will tell you all about her day. She is looking for a quiet home where she can be the centre of attention.',
    ),
    pet(
      'Simba',
      'sold',
      ['male', 'baby', 'small'],
      'Domestic longhair',
      '2026-09-28',
      'Simba is a fluffy kitten with a brave little roar. He has gone home with his litter mate.',
    ),
    pet(
      'Pepper',
      'available',
      ['female', 'adult', 'small'],
      'Domestic shorthair',
      '2026-04-08',
      'Pepper is a gentle black cat with bright eyes. She enjoys being brushed and will happily keep you company while you read.',
    ),
    pet(
      'Nala',
      'available',
      ['female', 'young', 'medium'],
      'Maine Coon mix',
      '2026-10-19',
      'Nala is curious and confident, with a magnificent tail. She loves climbing and would thrive with a tall cat tree and a window to watch the birds.',
    ),
  ],
  Rabbits: [
    pet(
      'Thumper',
      'available',
      ['male', 'adult', 'medium'],
      'Dutch',
      '2026-06-03',
      'Thumper is a friendly, inquisitive rabbit who loves fresh greens and a good binky across the lawn. He would enjoy a neutered companion.',
    ),
    pet(
      'Clover',
      'pending',
      ['female', 'young', 'small'],
      'Netherland Dwarf',
      '2026-08-25',
      'Clover is tiny and full of character. She is learning to enjoy gentle handling and loves to explore tunnels.',
    ),
    pet(
      'Hazel',
      'available',
      ['female', 'adult', 'large'],
      'French Lop',
      '2026-03-17',
      'Hazel is a relaxed lop with velvet ears who likes nothing more than a nose rub and a pile of hay.',
    ),
    pet(
      'Bun Bun',
      'sold',
      ['male', 'senior', 'medium'],
      'Lionhead',
      '2025-11-30',
      'Bun Bun is a distinguished old gentleman with a fluffy mane. He has found a calm home to enjoy his golden years.',
    ),
  ],
  Birds: [
    pet(
      'Kiwi',
      'available',
      ['male', 'young', 'small'],
      'Budgerigar',
      '2026-07-07',
      'Kiwi is a bright green budgie who whistles along to the radio. He is friendly and would love a home with another budgie to chat to.',
    ),
    pet(
      'Sunny',
      'available',
      ['female', 'adult', 'small'],
      'Cockatiel',
      '2026-05-12',
      'Sunny is a gentle cockatiel who likes head scratches and singing in the morning. She steps up onto a finger happily.',
    ),
    pet(
      'Rio',
      'sold',
      ['unknown', 'adult', 'medium'],
      'Sun Conure',
      '2026-01-26',
      'Rio is a colourful, sociable conure who loves company. Rio has gone to a home with plenty of time to play.',
    ),
    pet(
      'Peaches',
      'pending',
      ['female', 'senior', 'small'],
      'Lovebird',
      '2026-04-29',
      'Peaches is a sweet older lovebird who enjoys quiet company and a cosy corner of her cage.',
    ),
  ],
  'Guinea pigs': [
    pet(
      'Pumpkin',
      'available',
      ['male', 'young', 'small'],
      'Abyssinian',
      '2026-09-03',
      'Pumpkin has a wonderfully wild coat and a wheek that greets you every morning. He would love to go home with a friend.',
    ),
    pet(
      'Nugget',
      'available',
      ['female', 'adult', 'small'],
      'American',
      '2026-06-18',
      'Nugget is calm and cuddly and enjoys sitting on a lap with a bowl of fresh veg.',
    ),
    pet(
      'Cinnamon',
      'sold',
      ['female', 'baby', 'small'],
      'Teddy',
      '2026-10-10',
      'Cinnamon is a young, curious guinea pig with a soft teddy coat. She has gone home with her sister.',
    ),
  ],
  Hamsters: [
    pet(
      'Peanut',
      'available',
      ['male', 'young', 'small'],
      'Syrian',
      '2026-08-08',
      'Peanut is an active golden hamster who loves his wheel and stuffing his cheeks. He is used to gentle handling in the evening.',
    ),
    pet(
      'Gizmo',
      'pending',
      ['male', 'adult', 'small'],
      'Roborovski',
      '2026-07-15',
      'Gizmo is small and speedy, best enjoyed watching him dig and explore a roomy, well-bedded home.',
    ),
    pet(
      'Teddy',
      'available',
      ['female', 'baby', 'small'],
      'Syrian (long-haired)',
      '2026-11-02',
      'Teddy is a fluffy young hamster who is just getting to know people. She is gentle and curious.',
    ),
  ],
  Reptiles: [
    pet(
      'Spike',
      'available',
      ['male', 'adult', 'medium'],
      'Bearded Dragon',
      '2026-05-05',
      'Spike is a laid-back bearded dragon who enjoys basking and a bowl of fresh greens. He is happy to be handled.',
    ),
    pet(
      'Mango',
      'sold',
      ['female', 'young', 'small'],
      'Leopard Gecko',
      '2026-02-20',
      'Mango is a bright, calm gecko with lovely spots. She has gone to an experienced keeper.',
    ),
    pet(
      'Sheldon',
      'available',
      ['unknown', 'senior', 'medium'],
      "Hermann's Tortoise",
      '2026-03-28',
      'Sheldon is a steady old tortoise who loves dandelions and sunshine. Tortoises live a long time: Sheldon is looking for a family that plans ahead.',
    ),
  ],
  Fish: [
    pet(
      'Bubbles',
      'available',
      ['unknown', 'young', 'small'],
      'Fancy Goldfish',
      '2026-09-20',
      'Bubbles is a cheerful fantail who greets you at the glass. Bubbles would be happiest in a roomy tank with a friend or two.',
    ),
    pet(
      'Finn',
      'available',
      ['male', 'adult', 'small'],
      'Betta',
      '2026-07-30',
      'Finn is a dazzling blue betta with flowing fins. He likes a planted tank of his own and a calm spot in the house.',
    ),
    pet(
      'Goldie',
      'sold',
      ['unknown', 'adult', 'medium'],
      'Common Goldfish',
      '2026-01-08',
      'Goldie is a hardy, friendly goldfish who has gone to a lovely garden pond.',
    ),
  ],
  Ferrets: [
    pet(
      'Bandit',
      'available',
      ['male', 'young', 'small'],
      'Sable',
      '2026-08-19',
      'Bandit lives up to his name: he will steal a sock and hide it with great pride. Playful, affectionate and very funny.',
    ),
    pet(
      'Ziggy',
      'pending',
      ['female', 'adult', 'small'],
      'Albino',
      '2026-06-09',
      'Ziggy is a gentle ferret who loves to explore and then snooze in a hammock. She would do well with another ferret for company.',
    ),
  ],
};

/** The details adopters ask about (issue 28), as a row holds them: null when unknown. */
type TSeedDetails = {
  goodWithChildren: boolean | null;
  goodWithDogs: boolean | null;
  goodWithCats: boolean | null;
  houseTrained: boolean | null;
  spayedNeutered: boolean | null;
  vaccinated: boolean | null;
  specialNeeds: boolean | null;
  specialNeedsNote: string | null;
  energyLevel: PetEnergyLevel | null;
  coatLength: PetCoatLength | null;
  colors: PetColor[];
  /** In pence; null: ask the store. */
  adoptionFeeAmount: number | null;
  adoptionFeeCurrency: string | null;
};

/** Yes, no, or unknown, for the table below. */
type TFact = 'y' | 'n' | '?';
const factOf = (fact: TFact): boolean | null => (fact === '?' ? null : fact === 'y');

/**
 * One animal's details in a line: good with children, dogs, cats; house-trained, spayed or
 * neutered, vaccinated; special needs (with its note), energy, coat, colours, and the fee in pence
 * (null: ask the store).
 */
const details = (
  [children, dogs, cats]: [TFact, TFact, TFact],
  [houseTrained, spayedNeutered, vaccinated]: [TFact, TFact, TFact],
  specialNeedsNote: string | null,
  energyLevel: PetEnergyLevel | null,
  coatLength: PetCoatLength | null,
  colors: PetColor[],
  fee: number | null,
): TSeedDetails => ({
  goodWithChildren: factOf(children),
  goodWithDogs: factOf(dogs),
  goodWithCats: factOf(cats),
  houseTrained: factOf(houseTrained),
  spayedNeutered: factOf(spayedNeutered),
  vaccinated: factOf(vaccinated),
  specialNeeds: specialNeedsNote !== null,
  specialNeedsNote,
  energyLevel,
  coatLength,
  colors,
  adoptionFeeAmount: fee,
  adoptionFeeCurrency: fee === null ? null : 'GBP',
});

/** The demo animals' details by name (each name is seeded once). */
export const SEED_DETAILS: Record<string, TSeedDetails> = {
  Biscuit: details(
    ['y', 'y', '?'],
    ['y', 'y', 'y'],
    null,
    'high',
    'short',
    ['tan', 'white'],
    19500,
  ),
  Luna: details(['y', 'y', 'y'], ['y', 'y', 'y'], null, 'medium', 'short', ['golden'], 22500),
  Max: details(['y', 'y', '?'], ['n', 'n', 'y'], null, 'high', 'short', ['white', 'brown'], 25000),
  Bella: details(
    ['y', 'y', 'y'],
    ['y', 'y', 'y'],
    'Takes a daily tablet for her joints, hidden in a treat.',
    'low',
    'medium',
    ['brown', 'white'],
    9500,
  ),
  Rocky: details(['n', 'y', 'n'], ['y', 'y', 'y'], null, 'medium', 'short', ['black'], 19500),
  Daisy: details(
    ['y', 'y', 'y'],
    ['y', 'y', 'y'],
    'A heart murmur: checked twice a year by a vet, no limits on walks.',
    'low',
    'long',
    ['red', 'white'],
    17500,
  ),
  Otis: details(
    ['y', 'y', 'n'],
    ['y', 'y', 'y'],
    null,
    'high',
    'medium',
    ['black', 'white'],
    19500,
  ),
  Mochi: details(['y', 'n', 'n'], ['y', 'y', 'y'], null, 'high', 'short', ['tabby'], 8500),
  Oliver: details(['y', '?', 'y'], ['y', 'y', 'y'], null, 'low', 'short', ['blue'], 8500),
  Cleo: details(
    ['n', 'n', 'n'],
    ['y', 'y', 'y'],
    'Hyperthyroid: a tablet twice a day and a check-up every three months.',
    'low',
    'short',
    ['cream', 'brown'],
    4500,
  ),
  Simba: details(['y', '?', 'y'], ['y', 'n', 'y'], null, 'high', 'long', ['ginger'], 9500),
  Pepper: details(['y', 'y', 'y'], ['y', 'y', 'y'], null, 'medium', 'short', ['black'], 8500),
  Nala: details(['y', '?', 'y'], ['y', 'y', 'y'], null, 'high', 'long', ['brown', 'tabby'], 9500),
  Thumper: details(
    ['y', 'n', 'y'],
    ['y', 'y', 'y'],
    null,
    'medium',
    'short',
    ['black', 'white'],
    4500,
  ),
  Clover: details(['n', 'n', '?'], ['y', 'n', 'y'], null, 'high', 'short', ['grey'], 4500),
  Hazel: details(['y', 'n', 'y'], ['y', 'y', 'y'], null, 'low', 'medium', ['golden'], 4500),
  'Bun Bun': details(
    ['y', 'n', 'y'],
    ['y', 'y', 'y'],
    'Needs his mane brushed daily and a vet check for his teeth every few months.',
    'low',
    'long',
    ['cream'],
    3000,
  ),
  Kiwi: details(['y', 'n', 'n'], ['?', '?', '?'], null, 'high', null, ['green', 'yellow'], 2500),
  Sunny: details(['y', 'n', 'n'], ['?', '?', '?'], null, 'medium', null, ['grey', 'yellow'], 4000),
  Rio: details(
    ['n', 'n', 'n'],
    ['?', '?', '?'],
    null,
    'high',
    null,
    ['yellow', 'orange', 'green'],
    null,
  ),
  Peaches: details(['y', 'n', 'n'], ['?', '?', '?'], null, 'low', null, ['green', 'orange'], 2000),
  Pumpkin: details(
    ['y', 'n', '?'],
    ['?', 'n', '?'],
    null,
    'medium',
    'medium',
    ['ginger', 'white'],
    2000,
  ),
  Nugget: details(['y', 'n', '?'], ['?', 'n', '?'], null, 'low', 'short', ['cream'], 2000),
  Cinnamon: details(['y', 'n', '?'], ['?', 'n', '?'], null, 'medium', 'medium', ['ginger'], 2000),
  Peanut: details(['y', 'n', 'n'], ['?', 'n', '?'], null, 'high', 'short', ['golden'], 1000),
  Gizmo: details(['n', 'n', 'n'], ['?', 'n', '?'], null, 'high', 'short', ['grey', 'white'], 1000),
  Teddy: details(['y', 'n', 'n'], ['?', 'n', '?'], null, 'medium', 'long', ['cream'], 1000),
  Spike: details(
    ['y', '?', '?'],
    ['?', '?', '?'],
    'Needs a UVB lamp and a basking spot at 40 °C; we show you the set-up.',
    'low',
    null,
    ['tan', 'orange'],
    7500,
  ),
  Mango: details(['?', '?', '?'], ['?', '?', '?'], null, 'low', null, ['yellow', 'spotted'], 5000),
  Sheldon: details(
    ['y', '?', '?'],
    ['?', '?', '?'],
    'Hibernates from November to March, in a fridge kept at 5 °C: we explain how.',
    'low',
    null,
    ['brown', 'golden'],
    null,
  ),
  Bubbles: details(['?', '?', '?'], ['?', '?', '?'], null, 'medium', null, ['orange', 'white'], 0),
  Finn: details(['?', '?', '?'], ['?', '?', '?'], null, 'low', null, ['blue'], 500),
  Goldie: details(['?', '?', '?'], ['?', '?', '?'], null, 'low', null, ['golden'], 0),
  Bandit: details(
    ['n', '?', '?'],
    ['y', 'y', 'y'],
    null,
    'high',
    'short',
    ['brown', 'cream'],
    6000,
  ),
  Ziggy: details(['y', '?', '?'], ['y', 'y', 'y'], null, 'medium', 'short', ['white'], 6000),
};

/** The details' fields, from an empty set of them. */
const DETAIL_FIELDS = Object.keys(
  details(['?', '?', '?'], ['?', '?', '?'], null, null, null, [], null),
) as (keyof TSeedDetails)[];

/** Whether a row has none of the details: an animal seeded before them, or never described. */
const hasNoDetails = (row: TSeedDetails): boolean =>
  DETAIL_FIELDS.every((field) =>
    field === 'colors' ? row.colors.length === 0 : row[field] === null,
  );

/** A seed animal as a row: its arrival day as the DATE it is. */
const profileOf = ({ name: _name, status: _status, arrivedAt, ...profile }: TSeedPet) => ({
  ...profile,
  arrivedAt: new Date(`${arrivedAt}T00:00:00Z`),
});

/** A seed animal's details (every seed animal has a line in SEED_DETAILS: seed.test.ts). */
const detailsOf = (name: string): Partial<TSeedDetails> => SEED_DETAILS[name] ?? {};

/**
 * Transaction-scoped advisory lock key of the seed (arbitrary, distinct from Prisma's 72707369 and
 * from the API's demo key, 72707371).
 */
const SEED_LOCK_KEY = 72_707_370;

export type TSeedResult = {
  categoriesCreated: number;
  petsCreated: number;
  /** Animals seeded before profiles existed that got their profile. */
  profilesAdded: number;
  /** Animals seeded before the details existed (issue 28) that got theirs. */
  detailsAdded: number;
};

/**
 * The seed writes a few dozen animals in one transaction, once: Prisma's default of 5 s for an
 * interactive transaction failed `pnpm db:seed` on a machine busy with other work (6.3 s, three
 * test stacks starting beside the API's tests). Nothing waits on it but the command itself.
 */
const SEED_TRANSACTION = { maxWait: 30_000, timeout: 120_000 };

export const seedDatabase = (prisma: PrismaClient): Promise<TSeedResult> =>
  prisma.$transaction(async (tx) => {
    // Two seeds at once (two replicas starting) would otherwise both see an animal missing.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY}::bigint)`;
    const names = Object.keys(SEED_CATALOGUE);
    const { count: categoriesCreated } = await tx.category.createMany({
      data: names.map((name) => ({ name })),
      skipDuplicates: true,
    });
    const categories = await tx.category.findMany({
      where: { name: { in: names } },
      select: { id: true, name: true },
    });
    const existing = await tx.pet.findMany({
      where: { categoryId: { in: categories.map((category) => category.id) } },
      select: {
        id: true,
        categoryId: true,
        name: true,
        description: true,
        sex: true,
        age: true,
        size: true,
        breed: true,
        arrivedAt: true,
        ...Object.fromEntries(DETAIL_FIELDS.map((field) => [field, true])),
      },
    });
    const has = new Set(existing.map((pet) => `${pet.categoryId}/${pet.name}`));
    const missing = categories.flatMap((category) =>
      (SEED_CATALOGUE[category.name] ?? [])
        .filter((pet) => !has.has(`${category.id}/${pet.name}`))
        .map((pet) => ({
          name: pet.name,
          status: pet.status,
          categoryId: category.id,
          ...profileOf(pet),
          ...detailsOf(pet.name),
        })),
    );
    const { count: petsCreated } = await tx.pet.createMany({ data: missing });
    // Animals of an older seed, never described: someone who edited one is not overwritten.
    const categoryNames = new Map(categories.map((category) => [category.id, category.name]));
    let profilesAdded = 0;
    let detailsAdded = 0;
    for (const row of existing) {
      const seeded = SEED_CATALOGUE[categoryNames.get(row.categoryId) ?? '']?.find(
        (pet) => pet.name === row.name,
      );
      const undescribed = [
        row.description,
        row.sex,
        row.age,
        row.size,
        row.breed,
        row.arrivedAt,
      ].every((value) => value === null);
      if (seeded && undescribed) {
        await tx.pet.update({ where: { id: row.id }, data: profileOf(seeded) });
        profilesAdded += 1;
      }
      if (seeded && hasNoDetails(row as unknown as TSeedDetails)) {
        await tx.pet.update({ where: { id: row.id }, data: detailsOf(seeded.name) });
        detailsAdded += 1;
      }
    }
    return { categoriesCreated, petsCreated, profilesAdded, detailsAdded };
  }, SEED_TRANSACTION);
