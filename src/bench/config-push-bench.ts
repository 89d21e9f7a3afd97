/**
 * The configuration compiler at size: the first demo tenant gets 5,000 more users, each with an
 * extension and a SIP device, and the routing step's 500 call flows and 200 IVRs, written straight
 * into the tables. Then `POST /pbx/configuration/push?dry_run=1` (load the tenant, compile every
 * file, diff against the last pushed version) by its administrator: its time, the size of what it
 * answers, and its rate beside the bare server's over one connection. Plugged into `npm run bench` as an optional step.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { seedRouting } from './routing-bench.js';
import type { StepContext, StepFigures } from './scenarios.js';
import { median, round } from './stats.js';
import { inChunks, withWorkforceBench } from './workforce-bench.js';

export const CONFIG_BENCH_USERS = 5_000;

async function seedDirectoryAtSize(
  db: Kysely<DB>,
  dialect: DialectName,
  pbxId: string,
  memberId: string,
): Promise<{ users: number; flows: number; ivrs: number }> {
  const now = new Date().toISOString();
  const users = Array.from({ length: CONFIG_BENCH_USERS }, (_, i) => ({
    id: randomUUID(),
    pbx_id: pbxId,
    email: `bench-user-${i}@config.bench`,
    first_name: `Bench`,
    last_name: `User ${i}`,
    created_at: now,
    updated_at: now,
  }));
  const extensions = users.map((user, i) => ({
    id: randomUUID(),
    pbx_id: pbxId,
    voip_id: 100_000 + i,
    user_id: user.id,
    number: String(10_000 + i),
    name: user.last_name,
    created_at: now,
    updated_at: now,
  }));
  // The dry run never opens a secret (the files carry a token naming it), so any sealed text serves.
  const devices = extensions.map((extension, i) => ({
    id: randomUUID(),
    pbx_id: pbxId,
    user_id: extension.user_id,
    extension_id: extension.id,
    name: `Desk ${i}`,
    username: `bench${i}`,
    secret_sealed: `bench-sealed-${i}`,
    transport: 'udp',
    codecs: '["g722","alaw","ulaw"]',
    mac_address: null,
    model: null,
    enabled: 1,
    created_at: now,
    updated_at: now,
  }));
  await inChunks(users, (chunk) => db.insertInto('users').values(chunk).execute());
  await inChunks(extensions, (chunk) => db.insertInto('extensions').values(chunk).execute());
  await inChunks(devices, (chunk) => db.insertInto('sip_devices').values(chunk).execute());
  await (dialect === 'postgres' ? sql`analyze users, extensions, sip_devices` : sql`analyze`).execute(db);
  const routing = await seedRouting(db, dialect, pbxId, memberId);
  return { users: users.length, flows: routing.flows, ivrs: routing.ivrs };
}

export async function benchConfigPush(ctx: StepContext): Promise<StepFigures> {
  return withWorkforceBench(ctx, seedDirectoryAtSize, async ({ server, baselineUrl, tenant, seeded, seedSeconds }) => {
    ctx.log(
      `seeded ${seeded.users} users (an extension and a SIP device each), ${seeded.flows} call flows and ${seeded.ivrs} IVRs in ${seedSeconds.toFixed(1)} s`,
    );
    const token = await server.login(tenant.admin.email, tenant.admin.password);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const url = `${server.apiBase}/pbx/configuration/push?dry_run=1`;
    const times: number[] = [];
    let bytes = 0;
    let diffLines = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body: '{}' });
      const body = await response.text();
      times.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`dry run: HTTP ${response.status} ${body.slice(0, 300)}`);
      bytes = Buffer.byteLength(body);
      diffLines = ((JSON.parse(body) as { data: { diff: string } }).data.diff ?? '').split('\n').length;
    }
    ctx.log(`dry run: median ${median(times).toFixed(0)} ms over 5 (${(bytes / 1024 / 1024).toFixed(1)} MB answered, a ${diffLines}-line diff)`);
    // A dry run takes seconds, too long for paired load runs: the bare server is measured once, and
    // the ratio compares one dry run's rate (1 / its time) with the bare server's.
    const bare = await ctx.measure({ url: baselineUrl, connections: 1 });
    const rate = 1000 / median(times);
    return {
      users: seeded.users,
      flows: seeded.flows,
      ivrs: seeded.ivrs,
      seed_seconds: round(seedSeconds),
      dry_run_ms_median: round(median(times)),
      dry_run_ms_min: round(Math.min(...times)),
      dry_run_mb: round(bytes / 1024 / 1024),
      diff_lines: diffLines,
      bare_rps_one_connection: Math.round(bare.rps),
      config_dry_run_ratio: round(rate / bare.rps, 8),
    };
  });
}
