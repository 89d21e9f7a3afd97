import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * A phone number in any common format ("621 123 456", "00352 621123456", "+352621123456") as
 * E.164, read with the PBX's country as the default region; null when it is not a valid number.
 */
export function toE164(input: string, defaultCountry: string): string | null {
  const text = input.trim();
  if (!text || text.length > 64) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry.toUpperCase() as CountryCode);
  return parsed && parsed.isValid() ? parsed.number : null;
}
