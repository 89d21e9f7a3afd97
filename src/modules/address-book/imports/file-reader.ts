import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { parse } from 'csv-parse';
import * as XLSX from '@e965/xlsx';
import { ValidationFailed } from '../../../platform/errors.js';
import type { ImportFileType } from '../address-book.tables.js';

const SAMPLE_BYTES = 64 * 1024;
const DELIMITERS = [',', ';', '\t', '|'] as const;

/** What we learnt about an uploaded file from its first bytes. */
export interface SniffedFile {
  fileType: ImportFileType;
  /** CSV only: the encoding and delimiter found (or given). */
  encoding: string | null;
  delimiter: string | null;
}

export interface ReadOptions {
  fileType: ImportFileType;
  encoding: string | null;
  delimiter: string | null;
  enclosure: string | null;
  sheetIndex: number | null;
}

/** One record of the file: its 1-based position among the file's rows, and its cells as text. */
export interface SourceRow {
  row: number;
  cells: string[];
}

const fileError = (message: string) => ValidationFailed.field('file', message);

function claimedType(fileName: string): ImportFileType | null {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return ext === 'csv' || ext === 'xls' || ext === 'xlsx' ? ext : ext === 'txt' || ext === 'tsv' ? 'csv' : null;
}

/** Canonical names for what chardet reports; Latin-1 is read as its superset Windows-1252. */
function canonicalEncoding(name: string): string {
  const upper = name.toUpperCase();
  if (upper === 'ASCII' || upper === 'UTF8' || upper === 'UTF-8') return 'UTF-8';
  if (upper === 'UTF-16LE' || upper === 'UTF-16BE') return upper;
  if (upper === 'ISO-8859-1' || upper === 'WINDOWS-1252' || upper === 'CP1252') return 'windows-1252';
  return name;
}

/** Valid UTF-8 (pure ASCII included), allowing a character cut at the end of the sample. */
function isUtf8(sample: Buffer): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= 3 && cut < sample.length; cut++) {
    try {
      decoder.decode(sample.subarray(0, sample.length - cut));
      return !sample.includes(0);
    } catch {
      if (sample.length < SAMPLE_BYTES) return false;
    }
  }
  return false;
}

export function detectEncoding(sample: Buffer): string {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'UTF-8';
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'UTF-16LE';
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'UTF-16BE';
  if (isUtf8(sample)) return 'UTF-8';
  const detected = chardet.detect(sample);
  return canonicalEncoding(detected ?? 'UTF-8');
}

/** The delimiter that splits the first lines most consistently into more than one column. */
export function detectDelimiter(text: string, enclosure = '"'): string {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 20);
  let best: { delimiter: string; score: number } = { delimiter: ',', score: 0 };
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => {
      let count = 0;
      let quoted = false;
      for (const char of line) {
        if (char === enclosure) quoted = !quoted;
        else if (char === delimiter && !quoted) count++;
      }
      return count;
    });
    if (counts.length === 0 || counts[0] === 0) continue;
    const consistent = counts.filter((c) => c === counts[0]).length;
    const score = consistent * 100 + counts[0];
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

async function readSample(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The file's real type from its content (a ZIP is XLSX, an OLE2 compound file is XLS, text is
 * CSV), refusing empty files and files whose name claims a type their bytes do not have.
 */
export async function sniffFile(
  path: string,
  fileName: string,
  given: { encoding: string | null; delimiter: string | null; enclosure: string | null },
): Promise<SniffedFile> {
  const sample = await readSample(path);
  if (sample.length === 0) throw fileError('The file is empty.');
  const claimed = claimedType(fileName);
  const isZip = sample.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const isOle = sample.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  if (claimed === 'xlsx' && !isZip) throw fileError('The file is not a valid XLSX spreadsheet.');
  if (claimed === 'xls' && !isOle && !isZip) throw fileError('The file is not a valid XLS spreadsheet.');
  if (isZip) return { fileType: 'xlsx', encoding: null, delimiter: null };
  if (isOle) return { fileType: 'xls', encoding: null, delimiter: null };

  const encoding = given.encoding ? canonicalEncoding(given.encoding) : detectEncoding(sample);
  if (!isSupportedEncoding(encoding)) throw ValidationFailed.field('input_encoding', `The encoding ${encoding} is not supported.`);
  const text = iconv.decode(sample, encoding);
  // Text files have no NUL bytes and few control characters once decoded.
  // eslint-disable-next-line no-control-regex -- control characters are what this counts
  const controls = (text.match(/[\u0000-\u0008\u000e-\u001f]/g) ?? []).length;
  if (controls > Math.max(2, text.length / 100)) throw fileError('The file is not a CSV, XLS or XLSX file.');
  if (text.trim() === '') throw fileError('The file is empty.');
  return { fileType: 'csv', encoding, delimiter: given.delimiter ?? detectDelimiter(text, given.enclosure ?? '"') };
}

/**
 * Every record of the file in order; CSV is streamed, spreadsheets are loaded (the library needs
 * the workbook). Stray NUL characters (a few pass the text check) are dropped from the cells: no
 * contact field means one, and PostgreSQL cannot store it.
 */
export function readRows(path: string, options: ReadOptions, limit = Infinity): AsyncGenerator<SourceRow> {
  return options.fileType === 'csv' ? readCsv(path, options, limit) : readSheet(path, options, limit);
}

/** The cells without NUL characters; copied only in the rare row that has one. */
function withoutNul(cells: string[]): string[] {
  return cells.some((cell) => cell.includes('\u0000')) ? cells.map((cell) => cell.replaceAll('\u0000', '')) : cells;
}

async function* readCsv(path: string, options: ReadOptions, limit: number): AsyncGenerator<SourceRow> {
  const source = createReadStream(path);
  const decoder = iconv.decodeStream(options.encoding ?? 'UTF-8');
  const parser = source.pipe(decoder).pipe(
    parse({
      delimiter: options.delimiter ?? ',',
      quote: options.enclosure ?? '"',
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    }),
  );
  // pipe() does not pass errors on; a missing or unreadable file must end the parse.
  source.on('error', (error) => parser.destroy(error));
  decoder.on('error', (error: Error) => parser.destroy(error));
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (row > limit) break;
      yield { row, cells: withoutNul(record) };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall) throw error;
    throw fileError(`The CSV file could not be read near row ${row + 1}: ${(error as Error).message}`);
  } finally {
    source.destroy();
  }
}

export function openWorkbook(buffer: Buffer, fileType: ImportFileType, sheetRows?: number): XLSX.WorkBook {
  try {
    return XLSX.read(buffer, { type: 'buffer', dense: true, cellFormula: false, cellHTML: false, cellStyles: false, sheetRows });
  } catch {
    throw fileError(`The file is not a valid ${fileType.toUpperCase()} spreadsheet.`);
  }
}

async function* readSheet(path: string, options: ReadOptions, limit: number): AsyncGenerator<SourceRow> {
  const workbook = openWorkbook(await readFile(path), options.fileType, Number.isFinite(limit) ? limit : undefined);
  const index = options.sheetIndex ?? 0;
  const name = workbook.SheetNames[index];
  if (name === undefined)
    throw ValidationFailed.field('sheet_index', `The workbook has ${workbook.SheetNames.length} sheet(s); sheet_index ${index} does not exist.`);
  const sheet = workbook.Sheets[name];
  const first = sheet['!ref'] ? XLSX.utils.decode_range(sheet['!ref']).s.r : 0;
  // Formula cells give their computed (cached) value as displayed, never the formula text.
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true });
  for (const [i, cells] of rows.entries()) {
    const text = cells.map((c) => (c === null || c === undefined ? '' : String(c as string | number | boolean).trim()));
    if (text.every((c) => c === '')) continue;
    const row = first + i + 1;
    if (row > limit) break;
    yield { row, cells: withoutNul(text) };
  }
}

export async function sheetNames(path: string, fileType: ImportFileType): Promise<string[]> {
  return openWorkbook(await readFile(path), fileType, 1).SheetNames;
}

/** Whether iconv can decode `name` (its own check narrows the name's type away when false). */
function isSupportedEncoding(name: string): boolean {
  return iconv.encodingExists(name);
}
