import { ValidationFailed, type FieldErrors } from '../../../platform/errors.js';

/** Options sent as multipart fields beside the file, as the import resource names them. */
export interface ImportOptions {
  header_row_position: number | null;
  sheet_index: number | null;
  delimiter: string | null;
  enclosure: string | null;
  input_encoding: string | null;
  skip_on_error: boolean;
  notify_owner_by_email: boolean;
  webhook_url: string | null;
}

const KNOWN = new Set([
  'header_row_position',
  'sheet_index',
  'delimiter',
  'enclosure',
  'input_encoding',
  'skip_on_error',
  'notify_owner_by_email',
  'webhook_url',
]);
const DELIMITER_NAMES: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };

/**
 * Parses the text fields of the upload. `header_row_position` defaults to 1 (`null` or `none`:
 * the file has no header row); delimiter and encoding are detected when left out.
 */
export function parseImportOptions(fields: Record<string, string>): ImportOptions {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const key of Object.keys(fields)) if (!KNOWN.has(key)) fail(key, `The ${key.replace(/_/g, ' ')} field is not allowed.`);
  const blank = (v: string | undefined) => v === undefined || v.trim() === '';

  const integer = (key: string, min: number, fallback: number | null): number | null => {
    const raw = fields[key];
    if (blank(raw)) return fallback;
    if (/^(null|none)$/i.test(raw.trim())) return null;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > 1_000_000) {
      fail(key, `The ${key.replace(/_/g, ' ')} field must be an integer of at least ${min}.`);
      return fallback;
    }
    return value;
  };
  const boolean = (key: string): boolean => {
    const raw = fields[key];
    if (blank(raw)) return false;
    if (/^(1|true|yes|on)$/i.test(raw.trim())) return true;
    if (/^(0|false|no|off)$/i.test(raw.trim())) return false;
    fail(key, `The ${key.replace(/_/g, ' ')} field must be true or false.`);
    return false;
  };

  let delimiter: string | null = null;
  if (!blank(fields.delimiter)) {
    const raw = fields.delimiter;
    delimiter = DELIMITER_NAMES[raw.toLowerCase()] ?? raw;
    if (delimiter.length !== 1 || /[\r\n"]/.test(delimiter)) fail('delimiter', 'The delimiter field must be one character (or tab, comma, semicolon, pipe).');
  }
  const enclosure = blank(fields.enclosure) ? null : fields.enclosure;
  if (enclosure !== null && (enclosure.length !== 1 || /[\r\n]/.test(enclosure))) fail('enclosure', 'The enclosure field must be one character.');
  const encoding = blank(fields.input_encoding) ? null : fields.input_encoding.trim();
  if (encoding !== null && !/^[A-Za-z0-9_.:-]{2,32}$/.test(encoding)) fail('input_encoding', 'The input encoding field is invalid.');

  let webhookUrl: string | null = null;
  if (!blank(fields.webhook_url)) {
    webhookUrl = fields.webhook_url.trim();
    if (!isHttpUrl(webhookUrl)) fail('webhook_url', 'The webhook url field must be a valid http(s) URL.');
  }

  const options: ImportOptions = {
    header_row_position: integer('header_row_position', 1, 1),
    sheet_index: integer('sheet_index', 0, null),
    delimiter,
    enclosure,
    input_encoding: encoding,
    skip_on_error: boolean('skip_on_error'),
    notify_owner_by_email: boolean('notify_owner_by_email'),
    webhook_url: webhookUrl,
  };
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return options;
}

function isHttpUrl(raw: string): boolean {
  if (raw.length > 2048 || !URL.canParse(raw)) return false;
  const { protocol } = new URL(raw);
  return protocol === 'https:' || protocol === 'http:';
}
