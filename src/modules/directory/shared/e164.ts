import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { ValidationFailed } from '../../../platform/errors.js';

/** A number in E.164 (`+352691123456`), read with the PBX's country as the default region; null when invalid. */
export function toE164(raw: string, defaultCountry: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.trim(), defaultCountry.toUpperCase() as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

/** As toE164, but an invalid number is a 422 on `field`. */
export function requireE164(raw: string, defaultCountry: string, field: string): string {
  const number = toE164(raw, defaultCountry);
  if (!number) throw ValidationFailed.field(field, `The ${field.replace(/_/g, ' ')} field must be a valid phone number.`);
  return number;
}
