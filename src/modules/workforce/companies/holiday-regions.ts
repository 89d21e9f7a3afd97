import Holidays from 'date-holidays';

/**
 * The countries and regions `date-holidays` knows, so a company's public holidays can always be
 * computed: a company's `country_cc` must be one of its countries and its `region` (when given)
 * one of that country's states. Read once; the library's data is bundled.
 */
const library = new Holidays();
const countries = new Set(Object.keys(library.getCountries()));
const statesByCountry = new Map<string, Map<string, string>>();

function statesOf(country: string): Map<string, string> {
  let states = statesByCountry.get(country);
  if (!states) {
    // Codes by their upper-case spelling, so `by` finds `BY` and `aitutaki` finds `Aitutaki`.
    states = new Map(Object.keys(library.getStates(country) ?? {}).map((code) => [code.toUpperCase(), code]));
    statesByCountry.set(country, states);
  }
  return states;
}

/** The country as stored (upper case), or null when public holidays are not known for it. */
export function holidayCountry(raw: string): string | null {
  const country = raw.toUpperCase();
  return countries.has(country) ? country : null;
}

/** The region as the library spells it, or null when it is not a region of `country`. */
export function holidayRegion(country: string, raw: string): string | null {
  return statesOf(country).get(raw.toUpperCase()) ?? null;
}

/** The regions of a country, for error messages ("Allowed: BB, BE, ..."). */
export function holidayRegionsOf(country: string): string[] {
  return [...statesOf(country).values()];
}
