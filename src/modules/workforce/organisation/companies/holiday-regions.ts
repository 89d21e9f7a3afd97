/**
 * The countries and regions `date-holidays` knows, so a company's public holidays can always be
 * computed: a company's `country_cc` must be one of its countries and its `region` (when given)
 * one of that country's states. The library (some 10 MB of rules) is loaded on first use, not
 * by every process that merely imports the app (the CLI, a migration).
 */
interface HolidayPlaces {
  countries: Set<string>;
  /** Per country, its region codes by their upper-case spelling (`BY`, `AITUTAKI`) to the library's. */
  statesOf: (country: string) => Map<string, string>;
}

let places: Promise<HolidayPlaces> | undefined;

function holidayPlaces(): Promise<HolidayPlaces> {
  places ??= import('date-holidays').then(({ default: Holidays }) => {
    const library = new Holidays();
    const states = new Map<string, Map<string, string>>();
    return {
      countries: new Set(Object.keys(library.getCountries())),
      statesOf: (country: string) => {
        let codes = states.get(country);
        if (!codes) {
          codes = new Map(Object.keys(library.getStates(country) ?? {}).map((code) => [code.toUpperCase(), code]));
          states.set(country, codes);
        }
        return codes;
      },
    };
  });
  return places;
}

/**
 * The place as stored: the country upper case and the region as the library spells it, or which
 * of the two is unknown (`region` lists the country's regions, empty when it has none).
 */
export async function holidayPlace(
  country: string,
  region: string | null,
): Promise<{ country_cc: string; region: string | null } | { unknown: 'country' } | { unknown: 'region'; allowed: string[] }> {
  const { countries, statesOf } = await holidayPlaces();
  const countryCc = country.toUpperCase();
  if (!countries.has(countryCc)) return { unknown: 'country' };
  if (region === null) return { country_cc: countryCc, region: null };
  const states = statesOf(countryCc);
  const state = states.get(region.toUpperCase());
  return state ? { country_cc: countryCc, region: state } : { unknown: 'region', allowed: [...states.values()] };
}
