/**
 * The import readers as the service and the job use them. The readers pull in xlsx, iconv-lite,
 * chardet and csv-parse (about 1.5 MB of code), so they load with the first import a server
 * handles rather than at every start.
 */
import type * as FileReader from './file-reader.js';

export type { ReadOptions, SourceRow } from './file-reader.js';

const loadReader = () => import('./file-reader.js');

export async function* readRows(...args: Parameters<typeof FileReader.readRows>): ReturnType<typeof FileReader.readRows> {
  yield* (await loadReader()).readRows(...args);
}

export async function sniffFile(...args: Parameters<typeof FileReader.sniffFile>): ReturnType<typeof FileReader.sniffFile> {
  return (await loadReader()).sniffFile(...args);
}

export async function sheetNames(...args: Parameters<typeof FileReader.sheetNames>): ReturnType<typeof FileReader.sheetNames> {
  return (await loadReader()).sheetNames(...args);
}
