#!/usr/bin/env node
/* global fetch */
// Brings a tenant's sound files onto its Asterisk host, as the pushed configuration names them:
// announcements as <data-dir>/sounds/pbxapi/<prefix>/<id>.wav (Playback(pbxapi/<prefix>/<id>)),
// music on hold as <data-dir>/moh/pbxapi/<prefix>/<id>/<id>.wav (a class of mode = files on that
// folder). <prefix> is `t` and the PBX id's 32 hex digits, <id> the sound file's id without dashes.
//
//   node pbx-sounds-sync.mjs --api https://api.example.com/api/v1 --key pbxs_... --data-dir /usr/share/asterisk
//       [--prefix t<32 hex>] [--moh-reload [--asterisk /usr/sbin/asterisk] [--asterisk-config /etc/asterisk/asterisk.conf]]
//
// Run it from cron or after a push. It lists the sound files (all pages), fetches the version the
// PBX plays (8 kHz mono 16-bit PCM WAV, GET /sound-files/{id}/playable) of each one whose local
// copy's SHA-256 differs from the listed one, writes it atomically (a hidden temporary file in the
// same folder, then a rename), and removes what the two folders of the prefix hold beyond the
// live sound files. One line per change on stdout; nothing when nothing changed. Exit code 1 when
// something failed (the rest is still done), 2 on bad arguments.
//
// Announcements play from the new file at once. A music class (mode = files) reads its folder only
// when it loads: --moh-reload runs `asterisk -rx "moh reload"` after music changed (the binary from
// --asterisk, `-C <file>` from --asterisk-config when the instance has its own asterisk.conf).
//
// The key may come from the environment instead (PBX_SERVER_KEY), out of the process list. Plain
// Node 20: no dependencies.
import { Buffer } from 'node:buffer';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseArgs, promisify } from 'node:util';

const PER_PAGE = 100;
const HEX_ID = /^[0-9a-f]{32}$/;
const PREFIX = /^t[0-9a-f]{32}$/;
const USAGE =
  'usage: node pbx-sounds-sync.mjs --api <base URL, e.g. https://api.example.com/api/v1> --key <pbxs_ key, or PBX_SERVER_KEY> ' +
  '--data-dir <Asterisk data dir, e.g. /usr/share/asterisk> [--prefix t<32 hex>] [--moh-reload [--asterisk <binary>] [--asterisk-config <asterisk.conf>]]';

class UsageError extends Error {}

function options(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        api: { type: 'string' },
        key: { type: 'string' },
        'data-dir': { type: 'string' },
        prefix: { type: 'string' },
        'moh-reload': { type: 'boolean', default: false },
        asterisk: { type: 'string', default: 'asterisk' },
        'asterisk-config': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error.message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const key = values.key ?? process.env.PBX_SERVER_KEY;
  if (!values.api || !/^https?:\/\//.test(values.api)) throw new UsageError('--api must be the API base URL (http or https).');
  if (!key) throw new UsageError('--key (or PBX_SERVER_KEY) is required.');
  if (!values['data-dir']) throw new UsageError('--data-dir is required.');
  if (values.prefix !== undefined && !PREFIX.test(values.prefix))
    throw new UsageError('--prefix must be t followed by the PBX id as 32 lower-case hex digits.');
  return {
    api: values.api.replace(/\/+$/, ''),
    key,
    dataDir: values['data-dir'],
    prefix: values.prefix ?? null,
    mohReload: values['moh-reload'],
    asterisk: values.asterisk,
    asteriskConfig: values['asterisk-config'] ?? null,
  };
}

const compact = (id) => id.replace(/-/g, '').toLowerCase();
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

async function request(settings, path) {
  const response = await fetch(`${settings.api}${path}`, { headers: { authorization: `Bearer ${settings.key}`, accept: '*/*' } });
  if (!response.ok) {
    const body = (await response.text()).slice(0, 300);
    throw new Error(`GET ${path} answered ${response.status}: ${body}`);
  }
  return response;
}

/** Every sound file of the tenant, deleted ones included (they name the tenant too), oldest first. */
async function listSoundFiles(settings) {
  const files = [];
  for (let page = 1; ; page++) {
    const response = await request(settings, `/sound-files?perPage=${PER_PAGE}&page=${page}&sort=created_at&filter%5Btrashed%5D=with`);
    const { data, meta } = await response.json();
    files.push(...data);
    if (!meta || page >= meta.last_page || data.length === 0) return files;
  }
}

/** The local copy's SHA-256, or null when there is none. */
async function localChecksum(path) {
  try {
    return sha256(await readFile(path));
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
}

/** Writes `bytes` to `path` through a hidden temporary file in the same folder and a rename: Asterisk never reads half a file. */
async function writeAtomically(path, folder, name, bytes) {
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, `.${name}.tmp-${process.pid}`);
  try {
    await writeFile(temporary, bytes, { mode: 0o644 });
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

async function entries(folder) {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

async function sync(settings) {
  const files = await listSoundFiles(settings);
  const prefixes = new Set(files.map((file) => `t${compact(file.pbx_id)}`));
  if (settings.prefix) prefixes.add(settings.prefix);
  if (prefixes.size > 1) throw new Error(`the sound files name more than one PBX (${[...prefixes].join(', ')}); pass --prefix.`);
  const prefix = settings.prefix ?? [...prefixes][0];
  if (!prefix) {
    console.error('no sound files, and no --prefix: nothing to write, and no folder known to clean.');
    return { failures: 0, musicChanged: false };
  }
  const soundsDir = join(settings.dataDir, 'sounds', 'pbxapi', prefix);
  const mohDir = join(settings.dataDir, 'moh', 'pbxapi', prefix);
  const live = files.filter((file) => file.deleted_at === null && HEX_ID.test(compact(file.id)));
  const announcements = new Set(live.filter((file) => file.type === 'announcement').map((file) => compact(file.id)));
  const music = new Set(live.filter((file) => file.type === 'music').map((file) => compact(file.id)));
  let failures = 0;
  let musicChanged = false;
  const shown = (path) => relative(settings.dataDir, path);

  for (const file of live) {
    const hex = compact(file.id);
    const folder = file.type === 'music' ? join(mohDir, hex) : soundsDir;
    const path = join(folder, `${hex}.wav`);
    try {
      const local = await localChecksum(path);
      if (local !== null && local === file.playable_checksum_sha256) continue;
      const response = await request(settings, `/sound-files/${file.id}/playable`);
      const bytes = Buffer.from(await response.arrayBuffer());
      const etag = (response.headers.get('etag') ?? '').replace(/^W\//, '').replace(/"/g, '');
      if (etag && etag !== sha256(bytes)) throw new Error(`the download does not match its ETag (${bytes.length} bytes)`);
      if (local === sha256(bytes)) continue; // not converted when listed; converted since, and already here
      await writeAtomically(path, folder, `${hex}.wav`, bytes);
      if (file.type === 'music') musicChanged = true;
      console.log(`${local === null ? 'added' : 'updated'} ${shown(path)} (${file.type} "${file.name}", ${bytes.length} bytes)`);
    } catch (error) {
      failures++;
      console.error(`failed ${file.type} ${file.id} "${file.name}": ${error.message}`);
    }
  }

  // What the tenant's two folders hold beyond its live sound files: deleted files, a type that changed, left-overs.
  for (const entry of await entries(soundsDir)) {
    const hex = entry.name.replace(/\.wav$/, '');
    if (entry.isFile() && entry.name.endsWith('.wav') && announcements.has(hex)) continue;
    if (entry.name.startsWith('.') && !entry.name.includes('.tmp-')) continue;
    await rm(join(soundsDir, entry.name), { recursive: true, force: true });
    console.log(`removed ${shown(join(soundsDir, entry.name))}`);
  }
  for (const entry of await entries(mohDir)) {
    const folder = join(mohDir, entry.name);
    if (!entry.isDirectory() || !music.has(entry.name)) {
      await rm(folder, { recursive: true, force: true });
      musicChanged = true;
      console.log(`removed ${shown(folder)}`);
      continue;
    }
    for (const inner of await entries(folder)) {
      if (inner.name === `${entry.name}.wav`) continue;
      await rm(join(folder, inner.name), { recursive: true, force: true });
      musicChanged = true;
      console.log(`removed ${shown(join(folder, inner.name))}`);
    }
  }
  return { failures, musicChanged };
}

async function main() {
  let settings;
  try {
    settings = options(process.argv.slice(2));
    await stat(settings.dataDir);
  } catch (error) {
    console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : `--data-dir: ${error.message}`);
    process.exit(2);
  }
  try {
    const { failures, musicChanged } = await sync(settings);
    // A class of mode = files reads its folder when it loads: new or changed music plays after a reload.
    if (musicChanged && settings.mohReload) {
      const config = settings.asteriskConfig ? ['-C', settings.asteriskConfig] : [];
      await promisify(execFile)(settings.asterisk, [...config, '-rx', 'moh reload'], { timeout: 30_000 });
      console.log('reloaded music on hold (moh reload)');
    }
    process.exit(failures > 0 ? 1 : 0);
  } catch (error) {
    console.error(`pbx-sounds-sync: ${error.message}`);
    process.exit(1);
  }
}

await main();
