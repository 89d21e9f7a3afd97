/**
 * Every user-supplied value that reaches an Asterisk configuration file goes through one of these
 * functions. What they guard against (main/config.c, main/app.c, main/pbx_variables.c):
 *
 * - Line structure: the parser reads one `key = value` per line, so a CR, LF or any other control
 *   character (and the Unicode line and paragraph separators, which editors show as line breaks)
 *   would start a line of the attacker's choosing: a new section `[x]`, a directive `#exec`, an
 *   `exten =>`. Control characters never pass.
 * - Comments: `;` starts a comment anywhere on a line and `;--` opens a block comment that swallows
 *   the following lines until `--;`. Only a secret keeps a `;`, written `\;` (the parser turns it
 *   back into `;`); everywhere else it is removed.
 * - Dialplan arguments: an application's arguments are split on `,` after variable substitution,
 *   `(`/`)` nest, `"` quotes, `\` escapes, `${...}` and `$[...]` are expanded, `|` separated
 *   arguments in old releases. A value that becomes part of an application call (a caller name, a
 *   number) therefore keeps none of `, ( ) " \ $ { } [ ] | ; < > = &`.
 * - Names of sections, contexts, queues, classes: built from ids and fixed words only, never from
 *   free text (`identifier`), so nothing a user types can name or reopen a section.
 * - Numbers: an extension number, an E.164 number or a PIN is checked against its pattern and
 *   refused (null) otherwise, so `201,1,System(...)` can never be an extension. The caller leaves
 *   the item out of the configuration and says so in a comment.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** What an application argument, a caller name or a mailbox field may not contain. */
const DIALPLAN_SPECIAL = /[,()"\\${}[\]|;<>=&`]/g;

function oneLine(text: string): string {
  return text.normalize('NFC').replace(CONTROL, ' ');
}

function squeeze(text: string, max: number): string {
  const squeezed = text.replace(/\s+/g, ' ').trim();
  // No longer than `max` code units is no longer than `max` code points: nothing to cut.
  if (squeezed.length <= max) return squeezed;
  return [...squeezed].slice(0, max).join('').trim();
}

/** Free text shown in a `; comment` line: one line, `;` made `,` (so no `;--` block comment either). */
export function commentText(text: string | null | undefined, max = 120): string {
  return squeeze(oneLine(text ?? '').replace(/;/g, ','), max);
}

/**
 * A display name for a caller ID (`callerid=`, `Set(CALLERID(name)=...)`), a queue member's or a
 * mailbox's full name: letters of any script, digits, spaces and plain punctuation (`. - _ ' @ + /`),
 * nothing the config parser, the argument splitter, the variable substitution or ExecIf/GotoIf
 * (`?` and `:` separate their branches) reads.
 */
export function displayName(text: string | null | undefined, max = 60): string {
  return squeeze(
    oneLine(text ?? '')
      .replace(DIALPLAN_SPECIAL, ' ')
      .replace(/[^\p{L}\p{M}\p{N} .\-_'@+/]/gu, ' '),
    max,
  );
}

/** An extension number: 1 to 16 digits (the directory allows 2 to 16), else null. */
export function extensionNumber(text: string | null | undefined): string | null {
  return typeof text === 'string' && /^[0-9]{1,16}$/.test(text) ? text : null;
}

/** A number in E.164 (`+` and 8 to 15 digits), else null. */
export function e164(text: string | null | undefined): string | null {
  return typeof text === 'string' && /^\+[1-9][0-9]{6,14}$/.test(text) ? text : null;
}

/** A voicemail PIN: 4 to 12 digits, else null. */
export function pin(text: string | null | undefined): string | null {
  return typeof text === 'string' && /^[0-9]{4,12}$/.test(text) ? text : null;
}

/**
 * A name that becomes part of a section, context, queue, class or endpoint name: ASCII letters,
 * digits, `_`, `-` and `.`; anything else is refused (null). SIP user names are already of this
 * form (the directory's pattern); ids are UUIDs.
 */
export function identifier(text: string | null | undefined, max = 64): string | null {
  return typeof text === 'string' && text.length > 0 && text.length <= max && /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(text) ? text : null;
}

export { compactId, tenantPrefix } from '../../../platform/pbx-names.js';

/**
 * A secret written as a configuration value (a SIP password): kept exactly, with `;` escaped as
 * `\;` (config.c removes the backslash again). A value the parser cannot give back as it was is
 * refused (null): control characters (a line break would end the value and start a new line),
 * leading or trailing white space (trimmed by the parser) or a leading `\`.
 */
export function secretValue(text: string): string | null {
  if (text.length === 0 || text.length > 256) return null;
  if (new RegExp(CONTROL.source).test(text)) return null;
  if (text !== text.trim() || text.startsWith('\\')) return null;
  return text.replace(/;/g, '\\;');
}

/** An e-mail address for voicemail.conf (a field of a comma-separated line), else null. */
export function emailAddress(text: string | null | undefined): string | null {
  return typeof text === 'string' && text.length <= 254 && /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(text) ? text : null;
}

/** An IANA time zone name for GotoIfTime and STRFTIME (`Europe/Luxembourg`), else null. */
export function timeZone(text: string | null | undefined): string | null {
  return typeof text === 'string' && /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(text) && text.length <= 64 ? text : null;
}

/** A channel language (`en`, `de`, `pt_BR`), else null. */
export function language(text: string | null | undefined): string | null {
  return typeof text === 'string' && /^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/.test(text) ? text : null;
}

/** A date `YYYY-MM-DD`, else null. */
export function isoDate(text: string | null | undefined): string | null {
  return typeof text === 'string' && /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/.test(text) ? text : null;
}

/** A wall-clock time `HH:MM` (or `24:00`), else null. */
export function clockTime(text: string | null | undefined): string | null {
  return typeof text === 'string' && /^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/.test(text) ? text : null;
}

/** A flow node key as part of a priority label (`node_<key>`); keys are `[A-Za-z0-9_-]{1,64}`. */
export function nodeLabel(key: string): string | null {
  return /^[A-Za-z0-9_-]{1,64}$/.test(key) ? `node_${key}` : null;
}
