/**
 * Instants as the store's visitors and staff read them: on the store's clock (`STORE_TIME_ZONE`),
 * never the server's, with the zone's abbreviation so nobody wonders whose clock it is. British
 * English word order ("29 Mar 2026, 02:00 BST"), like the rest of the site.
 */
export type TInstant = Date | string | number;

export type TInstantStyle = {
  /** `short` (the default): "29 Mar 2026"; `long`: "29 March 2026". */
  month?: 'short' | 'long';
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Intl formatters are slow to build and immutable: one per zone and style, kept. */
const formatter = (locale: string, timeZone: string, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, cached);
  }
  return cached;
};

const toDate = (instant: TInstant): Date => {
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) {
    throw new RangeError(`not an instant: ${String(instant)}`);
  }
  return date;
};

const zoneNameIn = (locale: string, date: Date, timeZone: string): string =>
  formatter(locale, timeZone, { timeZoneName: 'short' })
    .formatToParts(date)
    .find((part) => part.type === 'timeZoneName')?.value ?? timeZone;

/**
 * The zone's short name at that instant: "GMT" or "BST" in London, "CET" or "CEST" in Paris, "EST"
 * or "EDT" in New York, else the offset ("GMT+9"). British English names Europe's zones, American
 * English North America's; where neither has a name, the offset is what both say.
 */
export const timeZoneAbbreviation = (instant: TInstant, timeZone: string): string => {
  const date = toDate(instant);
  const british = zoneNameIn('en-GB', date, timeZone);
  if (!/^GMT[+-]/.test(british)) {
    return british;
  }
  const american = zoneNameIn('en-US', date, timeZone);
  return /^[A-Z]{2,5}$/.test(american) ? american : british;
};

/** "29 Mar 2026, 02:00 BST": the instant on the store's clock, with the zone. */
export const formatStoreInstant = (
  instant: TInstant,
  timeZone: string,
  { month = 'short' }: TInstantStyle = {},
): string => {
  const date = toDate(instant);
  // Day and time apart: with a long month, Intl joins them with " at ", with a short one a comma.
  const day = formatter('en-GB', timeZone, { day: 'numeric', month, year: 'numeric' }).format(date);
  const time = formatter('en-GB', timeZone, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
  return `${day}, ${time} ${timeZoneAbbreviation(date, timeZone)}`;
};

/** "29 March 2026": the day it is (or was) at the store at that instant, without the time. */
export const formatStoreDate = (instant: TInstant, timeZone: string): string =>
  formatter('en-GB', timeZone, { day: 'numeric', month: 'long', year: 'numeric' }).format(
    toDate(instant),
  );

/** The store's calendar date at that instant, `YYYY-MM-DD` ("today" is `storeCalendarDate(new Date(), zone)`). */
export const storeCalendarDate = (instant: TInstant, timeZone: string): string => {
  const parts = formatter('en-GB', timeZone, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).formatToParts(toDate(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
};
