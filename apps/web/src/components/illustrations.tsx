import type { ReactNode } from 'react';
import type { TIllustration } from '@/lib/category-look';

/**
 * The site's own drawings of the animals it shows when there is no photo: one per kind, all drawn
 * for this site on one 96 × 96 grid in one style (a 2.5 unit rounded outline in the category's ink,
 * a warm white body, shading as the ink at low opacity, round eyes with a highlight). No image
 * comes from elsewhere. Each is a front or side portrait, so no two kinds look alike.
 */

/** The body colour: warm white, so the animal stands out from its tinted tile. */
const BODY = '#fffdf9';
/** Shading in the ink's own colour: patches, ears, cheeks. */
const shade = (opacity: number) => ({
  fill: 'currentColor',
  fillOpacity: opacity,
  stroke: 'none',
});

/** A round eye with a small highlight, the same on every animal. */
const Eye = ({ x, y, r = 2.8 }: { x: number; y: number; r?: number }) => (
  <>
    <circle cx={x} cy={y} r={r} fill="currentColor" stroke="none" />
    <circle cx={x + r * 0.35} cy={y - r * 0.35} r={r * 0.32} fill={BODY} stroke="none" />
  </>
);

const Cheek = ({ x, y, r = 3.2 }: { x: number; y: number; r?: number }) => (
  <circle cx={x} cy={y} r={r} {...shade(0.16)} />
);

const DRAWINGS: Record<TIllustration, ReactNode> = {
  dog: (
    <>
      {/* Floppy ears behind the head. */}
      <path
        d="M34 30C25 25 15 32 16 46C17 55 22 60 28 58C31 57 32 53 32 48"
        fill="currentColor"
        fillOpacity={0.28}
      />
      <path
        d="M62 30C71 25 81 32 80 46C79 55 74 60 68 58C65 57 64 53 64 48"
        fill="currentColor"
        fillOpacity={0.28}
      />
      <path
        d="M48 24C62 24 68 34 68 46C68 54 66 60 64 64C60 72 55 76 48 76C41 76 36 72 32 64C30 60 28 54 28 46C28 34 34 24 48 24Z"
        fill={BODY}
      />
      {/* A patch over one eye. */}
      <path d="M52 38C58 36 63 40 63 46C63 51 58 53 54 51C51 49 49 41 52 38Z" {...shade(0.2)} />
      <Eye x={40} y={46} />
      <Eye x={57} y={46} />
      <path
        d="M44 56.5C44 54 52 54 52 56.5C52 59 49.5 60.5 48 60.5C46.5 60.5 44 59 44 56.5Z"
        fill="currentColor"
      />
      <path d="M48 60.5V64M42.5 64C44.5 67.5 48 67 48 64C48 67 51.5 67.5 53.5 64" />
      <path d="M46 66.5C46 70.5 50 70.5 50 66.5" fill="#f2a7a0" strokeWidth={2} />
    </>
  ),
  cat: (
    <>
      <path
        d="M27 48C26 40 27 30 29 20L43 29C46 28.3 50 28.3 53 29L67 20C69 30 70 40 69 48C68 64 59 74 48 74C37 74 28 64 27 48Z"
        fill={BODY}
      />
      <path d="M31.5 26L33 34L39 30.5Z" {...shade(0.22)} />
      <path d="M64.5 26L63 34L57 30.5Z" {...shade(0.22)} />
      {/* Tabby stripes on the forehead. */}
      <path d="M44 33L45 38M48 32V38.5M52 33L51 38" strokeWidth={2} />
      <ellipse cx={39} cy={48} rx={2.6} ry={3.4} fill="currentColor" stroke="none" />
      <ellipse cx={57} cy={48} rx={2.6} ry={3.4} fill="currentColor" stroke="none" />
      <circle cx={40} cy={46.8} r={0.9} fill={BODY} stroke="none" />
      <circle cx={58} cy={46.8} r={0.9} fill={BODY} stroke="none" />
      <Cheek x={35} y={57} />
      <Cheek x={61} y={57} />
      <path d="M45.5 55H50.5L48 57.5Z" fill="currentColor" strokeWidth={2} />
      <path d="M48 57.5C48 60.5 45 62 43 60.5M48 57.5C48 60.5 51 62 53 60.5" />
      <path d="M35 55L20 52M35 59L21 61M61 55L76 52M61 59L75 61" strokeWidth={1.8} />
    </>
  ),
  rabbit: (
    <>
      <ellipse cx={39} cy={25} rx={6.5} ry={16} transform="rotate(-10 39 25)" fill={BODY} />
      <ellipse cx={57} cy={25} rx={6.5} ry={16} transform="rotate(10 57 25)" fill={BODY} />
      <ellipse cx={39} cy={26} rx={2.6} ry={10} transform="rotate(-10 39 26)" {...shade(0.2)} />
      <ellipse cx={57} cy={26} rx={2.6} ry={10} transform="rotate(10 57 26)" {...shade(0.2)} />
      <path
        d="M48 38C61 38 69 47 69 58C69 69 60 76 48 76C36 76 27 69 27 58C27 47 35 38 48 38Z"
        fill={BODY}
      />
      <Eye x={40} y={55} />
      <Eye x={56} y={55} />
      <Cheek x={35.5} y={63} r={3.6} />
      <Cheek x={60.5} y={63} r={3.6} />
      <path
        d="M45.5 61.5C45.5 60 50.5 60 50.5 61.5C50.5 63 48 64.5 48 64.5C48 64.5 45.5 63 45.5 61.5Z"
        fill="currentColor"
        strokeWidth={2}
      />
      <path d="M48 64.5V66.5M44 66.5C46 69 48 68.5 48 66.5C48 68.5 50 69 52 66.5" />
      <path d="M46.3 68.3V71.5H49.7V68.3" fill={BODY} strokeWidth={1.8} />
    </>
  ),
  bird: (
    <>
      {/* On a branch, facing right. */}
      <path d="M14 77H82" />
      <path d="M70 77C71 71 77 69 81 72C78 76 74 77 70 77Z" {...shade(0.3)} />
      <path d="M37 63L25 78H34L42 68" fill="currentColor" fillOpacity={0.22} />
      <path
        d="M54 23C64 23 70 31 70 40C70 57 59 70 45 70C37 70 31 65 31 57C31 49 37 45 40 38C43 29 47 23 54 23Z"
        fill={BODY}
      />
      <path d="M43 46C51 45 58 51 57 59C56 65 48 68 41 65C43 59 41 51 43 46Z" {...shade(0.2)} />
      <path d="M46 52C49 53 51 55 52 58M44 57C46 58 48 60 48 62" strokeWidth={1.8} />
      <Eye x={57} y={35} />
      <Cheek x={61} y={44} r={3} />
      <path
        d="M68.5 36C73 36.5 76 38.5 76.5 41.5C73 43 70 43.5 67.5 43"
        fill="currentColor"
        fillOpacity={0.35}
      />
      <path d="M45 70V77M53 68V77" />
    </>
  ),
  'guinea-pig': (
    <>
      {/* A loaf, side on, facing left: no tail, tiny feet, a two-tone coat. */}
      <path d="M31 71V75M41 72V75M59 72V75M68 71V75" />
      <path
        d="M22 58C22 44 34 36 50 36C66 36 78 44 78 58C78 68 72 72 62 72H34C26 72 22 66 22 58Z"
        fill={BODY}
      />
      <path
        d="M55 36.4C66 37 76 44 77.6 56C70 58 62 54 58 46C56 42 55 39 55 36.4Z"
        {...shade(0.22)}
      />
      <path d="M62 71.6C64 64 70 60 77 61C76 67 71 71 62 71.6Z" {...shade(0.22)} />
      <path d="M36.5 42C35.5 37.5 40.5 36.5 42 40.5Z" fill="currentColor" fillOpacity={0.3} />
      <Eye x={32} y={50} r={2.6} />
      <Cheek x={31} y={58} r={3} />
      <circle cx={23.5} cy={57} r={1.8} fill="currentColor" stroke="none" />
      <path d="M25 61C27 63 29 62.5 30 61" strokeWidth={2} />
      <path d="M24 55L15 52M24 58L15 60" strokeWidth={1.6} />
    </>
  ),
  hamster: (
    <>
      {/* Round, facing us, cheek pouches full, holding a seed. */}
      <circle cx={33} cy={30} r={7} fill={BODY} />
      <circle cx={63} cy={30} r={7} fill={BODY} />
      <circle cx={33} cy={30} r={3.4} {...shade(0.22)} />
      <circle cx={63} cy={30} r={3.4} {...shade(0.22)} />
      <path
        d="M48 26C64 26 74 38 74 54C74 68 63 78 48 78C33 78 22 68 22 54C22 38 32 26 48 26Z"
        fill={BODY}
      />
      <path
        d="M48 27C56 27 62 31 64 38C58 36 52 37 48 40C44 37 38 36 32 38C34 31 40 27 48 27Z"
        {...shade(0.2)}
      />
      <Eye x={40} y={45} />
      <Eye x={56} y={45} />
      <circle cx={32.5} cy={54} r={6.5} {...shade(0.14)} />
      <circle cx={63.5} cy={54} r={6.5} {...shade(0.14)} />
      <path d="M46 50.5H50L48 53Z" fill="currentColor" strokeWidth={2} />
      <path d="M48 53C48 55.5 46 56.5 44.5 55.5M48 53C48 55.5 50 56.5 51.5 55.5" strokeWidth={2} />
      <path
        d="M48 59C52.5 59 53.5 65.5 48 70C42.5 65.5 43.5 59 48 59Z"
        fill="currentColor"
        fillOpacity={0.35}
        strokeWidth={2}
      />
      <circle cx={42.5} cy={64.5} r={3.2} fill={BODY} strokeWidth={2} />
      <circle cx={53.5} cy={64.5} r={3.2} fill={BODY} strokeWidth={2} />
      <path d="M37 78C37 74.5 43 74.5 43 78M53 78C53 74.5 59 74.5 59 78" strokeWidth={2} />
    </>
  ),
  tortoise: (
    <>
      {/* A tortoise, side on, walking right, smiling. */}
      <path d="M30 62V72H37V64M58 64V72H65V62" fill={BODY} />
      <path d="M24 60L16 63.5L24 65" fill={BODY} />
      <path d="M69 57C70 49 76 44 82 45.5C89 47 90 56 84 59.5C80 61.5 74 62 69 62" fill={BODY} />
      <Eye x={81.5} y={51} r={2.5} />
      <path d="M82.5 56C84.5 56.5 86.5 55.5 87.5 54" strokeWidth={2} />
      <path d="M21 62C21 44 33 31 48 31C63 31 75 44 75 62Z" fill="currentColor" fillOpacity={0.2} />
      <path d="M41 44L48 40L55 44L55 52L48 56L41 52Z" fill={BODY} strokeWidth={2} />
      <path
        d="M41 52L34 62M55 52L62 62M48 56V62M41 44L32 40M55 44L64 40M48 40V31"
        strokeWidth={2}
      />
      <path d="M17 62H77" />
    </>
  ),
  fish: (
    <>
      {/* Facing left, blowing bubbles. */}
      <path d="M66 48L82 35C79.5 43.5 79.5 52.5 82 61Z" fill="currentColor" fillOpacity={0.22} />
      <path d="M40 32C43 24 54 22 59 32" fill="currentColor" fillOpacity={0.22} />
      <path d="M44 64C46 71 53 72 57 63" fill="currentColor" fillOpacity={0.22} />
      <path
        d="M18 48C24 36 36 30 48 30C60 30 68 40 70 48C68 56 60 66 48 66C36 66 24 60 18 48Z"
        fill={BODY}
      />
      <path d="M37 37C41 43 41 53 37 59" />
      <path d="M47 42C50 45 50 50 47 53M55 40C58 44 58 51 55 55" strokeWidth={1.8} />
      <Eye x={28} y={45} />
      <Cheek x={30} y={53} r={2.8} />
      <path d="M21 51.5C23 53.5 26 53.5 27 52.5" strokeWidth={2} />
      <circle cx={15} cy={35} r={2.5} strokeWidth={2} />
      <circle cx={11} cy={25} r={3.5} strokeWidth={2} />
      <circle cx={19} cy={16} r={2} strokeWidth={2} />
    </>
  ),
  ferret: (
    <>
      {/* Head and long shoulders, facing us, with the ferret's mask. */}
      <path d="M37 62C33 70 31 79 31 88H65C65 79 63 70 59 62" fill={BODY} />
      <path d="M41 70C44 73 52 73 55 70C56 76 56 82 55 88H41C40 82 40 76 41 70Z" {...shade(0.14)} />
      <circle cx={32} cy={31} r={6.5} fill={BODY} />
      <circle cx={64} cy={31} r={6.5} fill={BODY} />
      <circle cx={32} cy={31} r={3} {...shade(0.24)} />
      <circle cx={64} cy={31} r={3} {...shade(0.24)} />
      <path
        d="M48 25C61 25 69 33 69 44C69 55 60 66 48 70C36 66 27 55 27 44C27 33 35 25 48 25Z"
        fill={BODY}
      />
      <path
        d="M28 44C32 38 40 38 44 44C45.5 46.5 50.5 46.5 52 44C56 38 64 38 68 44C68 50 62 54 56 52C52.5 51 50 50.5 48 50.5C46 50.5 43.5 51 40 52C34 54 28 50 28 44Z"
        {...shade(0.3)}
      />
      <Eye x={39} y={45} />
      <Eye x={57} y={45} />
      <path
        d="M45.5 57.5C45.5 56 50.5 56 50.5 57.5C50.5 59 48 60.5 48 60.5C48 60.5 45.5 59 45.5 57.5Z"
        fill="currentColor"
        strokeWidth={2}
      />
      <path
        d="M48 60.5V62.5M45 63.5C46.5 65 48 64.5 48 62.5C48 64.5 49.5 65 51 63.5"
        strokeWidth={2}
      />
      <path d="M41 58L28 56M41 61L29 63M55 58L68 56M55 61L67 63" strokeWidth={1.6} />
    </>
  ),
  paw: (
    <>
      {/* Any other animal: a paw print with a heart in its pad. */}
      <path
        d="M48 48C57 48 66 57 66 65C66 72 60 75 55 73C51.5 71.8 44.5 71.8 41 73C36 75 30 72 30 65C30 57 39 48 48 48Z"
        fill={BODY}
      />
      <ellipse cx={28} cy={44} rx={5.5} ry={7} transform="rotate(-20 28 44)" fill={BODY} />
      <ellipse cx={39} cy={31} rx={5.5} ry={7.5} transform="rotate(-6 39 31)" fill={BODY} />
      <ellipse cx={57} cy={31} rx={5.5} ry={7.5} transform="rotate(6 57 31)" fill={BODY} />
      <ellipse cx={68} cy={44} rx={5.5} ry={7} transform="rotate(20 68 44)" fill={BODY} />
      <path
        d="M48 66C42 62 40.5 59.5 40.5 57.5C40.5 55.5 42 54 44 54C45.7 54 47 55 48 56.5C49 55 50.3 54 52 54C54 54 55.5 55.5 55.5 57.5C55.5 59.5 54 62 48 66Z"
        fill="currentColor"
        fillOpacity={0.3}
        strokeWidth={2}
      />
    </>
  ),
};

type TProps = { kind: TIllustration; className?: string };

/** Decorative: the animal's category is always also given as text beside it. */
export const Illustration = ({ kind, className }: TProps) => (
  <svg
    viewBox="0 0 96 96"
    aria-hidden="true"
    focusable="false"
    className={className}
    fill="none"
    stroke="currentColor"
    strokeWidth={2.5}
    strokeLinecap="round"
    strokeLinejoin="round"
    data-illustration={kind}
  >
    {DRAWINGS[kind]}
  </svg>
);
