import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertPbx } from '../platform/tenancy.js';
import { insertUser } from '../modules/directory/index.js';
import { ContactImportsService, type UploadPart } from '../modules/address-book/index.js';
import type { Mailer } from '../platform/mail/mailer.js';
import { createBenchSchema, type BenchSchema } from './postgres.js';
import type { StepContext } from './scenarios.js';

const ROWS = 100_000;

async function writeCsv(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('Name;Company;E-mail;Mobile;Office\n');
  for (let i = 0; i < ROWS; i++) {
    const line = `Person ${i};"Company ${i % 997}, S.A.";person${i}@bench.example;+352 691 ${String(100000 + i).padStart(6, '0')};26 ${String(100000 + i).slice(-6)}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * A 100,000-row CSV imported end to end: upload (streamed to disk), detection, mapping,
 * confirmation and the background job, on a SQLite file database of its own, or, in the
 * benchmark's PostgreSQL run, in a schema of its own (dropped after). Returns the wall time from
 * upload to completion and the peak resident memory of the process.
 */
export async function benchImport(ctx?: StepContext): Promise<{ rows: number; seconds: number; peakRssMb: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-import-bench-'));
  const csv = join(dir, 'contacts.csv');
  await writeCsv(csv);
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, JOB_WORKER: 'false' });
  const postgresUrl = ctx?.server.dialect === 'postgres' ? ctx.config.postgresUrl : null;
  const schema: BenchSchema | null = postgresUrl ? await createBenchSchema(postgresUrl) : null;
  const database = openDatabase(schema ? { url: schema.serverUrl } : { sqlitePath: join(dir, 'bench.sqlite') });
  await migrateToLatest(database.db);
  const quietMailer: Mailer = { send: async () => undefined, close: () => undefined };
  const app = await buildApp({ config, database, mailer: quietMailer, logger: false });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  try {
    const pbx = await insertPbx(database.db, app.ctx.clock, { name: 'Bench PBX', countryCode: 'LU' });
    const user = await insertUser(database.db, app.ctx.clock, { pbx_id: pbx.id, email: `bench-${Date.now()}@bench.example`, allow_manage_global_contacts: 1 });
    const owner = { tenant: { pbxId: pbx.id }, userId: user.id };
    const service = new ContactImportsService(app.ctx);
    const started = process.hrtime.bigint();
    async function* parts(): AsyncGenerator<UploadPart> {
      yield { type: 'file', fieldname: 'file', filename: 'contacts.csv', file: createReadStream(csv) };
      yield { type: 'field', fieldname: 'skip_on_error', value: 'true' };
    }
    const created = await service.create(owner, parts());
    await service.saveMappings(owner, created.id, [
      { field: 'name1', column: 0, subfields: [] },
      { field: 'company_name', column: 1, subfields: [] },
      { field: 'email', column: 2, subfields: [] },
      { field: 'phone_number', column: 3, subfields: [{ name: 'type', value: 'mobile' }] },
      { field: 'phone_number', column: 4, subfields: [{ name: 'type', value: 'work' }] },
    ]);
    await service.confirm(owner, created.id);
    await app.jobs.drain();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const done = await service.get(owner, created.id);
    if (done.status !== 'completed' || done.records_count !== ROWS)
      throw new Error(`import ended ${done.status} with ${done.records_count} records, ${done.errors_count} errors`);
    return { rows: ROWS, seconds: Math.round(seconds * 100) / 100, peakRssMb: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(sampler);
    await app.close();
    await database.close();
    await schema?.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchImport().then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
