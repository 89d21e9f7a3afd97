import { randomBytes } from 'node:crypto';
import * as XLSX from '@e965/xlsx';
import { bearer, type TestApp } from './helpers.js';

/** A multipart/form-data body with one file part and text fields, as a browser would send it. */
export function multipart(file: { name: string; content: Buffer | string; type?: string } | null, fields: Record<string, string> = {}) {
  const boundary = `----pbx${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    chunks.push(typeof file.content === 'string' ? Buffer.from(file.content) : file.content);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(t: TestApp, token: string, file: { name: string; content: Buffer | string } | null, fields: Record<string, string> = {}) {
  const body = multipart(file, fields);
  return t.app.inject({ method: 'POST', url: '/api/v1/contacts/imports', headers: { ...bearer(token), ...body.headers }, payload: body.payload });
}

export const STANDARD_MAPPING = [
  { field: 'name1', column: 0, subfields: [] },
  { field: 'email', column: 1, subfields: [] },
  {
    field: 'phone_number',
    column: 2,
    subfields: [
      { name: 'type', value: 'mobile' },
      { name: 'label', value: 'Mobile' },
    ],
  },
];

/** Maps, confirms and runs an import to its end; returns the import as GET shows it with records and errors. */
export async function runImport(t: TestApp, token: string, id: string, mappings: object[] = STANDARD_MAPPING) {
  const mapped = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/imports/${id}/mappings`, headers: bearer(token), payload: { mappings } });
  if (mapped.statusCode !== 200) throw new Error(`mapping failed: ${mapped.body}`);
  const confirmed = await t.app.inject({ method: 'POST', url: `/api/v1/contacts/imports/${id}/confirm`, headers: bearer(token) });
  if (confirmed.statusCode !== 202) throw new Error(`confirm failed: ${confirmed.body}`);
  await t.app.jobs.drain();
  const read = await t.app.inject({ method: 'GET', url: `/api/v1/contacts/imports/${id}?include=records,errors`, headers: bearer(token) });
  return read.json();
}

/** A workbook with several sheets; the second holds the contacts and a formula cell. */
export function workbook(bookType: 'xlsx' | 'xls'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Other sheet'], ['ignore me']]), 'Notes');
  const sheet = XLSX.utils.aoa_to_sheet([
    ['Name', 'E-mail', 'Phone', 'Score'],
    ['Sheet Person', 'sheet@example.test', '+352 621 700 001', 1],
    ['Formula Person', 'formula@example.test', '+352 621 700 002', 2],
  ]);
  // A formula cell with its cached result, as Excel saves it.
  sheet['D3'] = { t: 'n', f: 'D2*21', v: 21 };
  sheet['A4'] = { t: 's', f: 'CONCATENATE("Calc", "ulated")', v: 'Calculated' };
  sheet['C4'] = { t: 's', v: '+352 621 700 003' };
  sheet['!ref'] = 'A1:D4';
  XLSX.utils.book_append_sheet(book, sheet, 'Contacts');
  return XLSX.write(book, { type: 'buffer', bookType: bookType === 'xls' ? 'biff8' : 'xlsx' }) as Buffer;
}
