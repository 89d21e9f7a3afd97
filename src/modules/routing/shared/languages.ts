import { Nullable, StringEnum } from '../../../http/schema.js';

/** Announcement languages of the contract (IVR and IVR step); null = Auto. */
export const ANNOUNCEMENT_LANGUAGES = [
  'en',
  'de',
  'fr',
  'lb',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'ru',
  'tr',
  'sv',
  'da',
  'no',
  'fi',
  'cs',
  'sk',
  'el',
  'hu',
  'ro',
  'bg',
  'hr',
  'uk',
  'ar',
  'he',
  'hi',
  'ja',
  'ko',
  'zh',
  'id',
  'ms',
  'th',
  'vi',
] as const;
export type AnnouncementLanguage = (typeof ANNOUNCEMENT_LANGUAGES)[number];

/** A language of the list, or null (Auto: detected or inherited earlier in the call). */
export const LanguageOrAuto = (description: string) => Nullable(StringEnum(ANNOUNCEMENT_LANGUAGES), { description });
