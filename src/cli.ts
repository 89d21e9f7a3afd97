#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { commandContext, openConfiguredDatabase, openMigratedDatabase } from './runtime.js';
import { createApiKey, listApiKeys, revokeApiKey } from './platform/auth/api-keys.js';
import { announceChange } from './platform/cache/change-broadcast.js';
import { INTEGRATION_SCOPES } from './platform/auth/principal.js';
import { findPbx, insertPbx } from './platform/tenancy.js';
import { isUniqueViolation } from './db/errors.js';
import type { ApiKeyKind } from './db/schema.js';

// The server, the demo seed and the directory's routes pull in most of the API (Fastify, every
// module's routes and schemas); only the commands that use them import them, so the others start
// without that cost.
const loadServer = () => import('./server.js');
const loadApp = () => import('./app.js');
const loadDemoSeed = () => import('./demo-seed.js');
const loadDirectory = () => import('./modules/directory/index.js');

const USAGE = `Usage: pbx-api <command> [options]

Commands:
  serve                               migrate, seed demo data into an empty database (not in production
                                      unless SEED_DEMO=true), serve the API
  migrate                             apply pending database migrations
  seed --demo [--json]                seed the demo tenants (idempotent); --json prints only the JSON
  openapi                             print the OpenAPI 3.1 document the server serves at /api/v1/openapi.json
  tenant create --name NAME [--country LU] [--timezone Europe/Luxembourg] [--plan standard] [--rate-limit N]
  user create --pbx PBX_ID --email EMAIL [--password PASSWORD] [--first-name F] [--last-name L] [--role user|admin]
  api-key create --kind pbx|integration|internal|pbx-server --pbx PBX_ID [--name NAME] [--scopes a,b]
  api-key create --kind internal --operator-wide [--name NAME]
                                      an internal key serving every PBX: its name is marked, its every use logged
  api-key list [--pbx PBX_ID] [--kind KIND]
                                      the keys (never their tokens) as JSON, operator-wide ones marked
  api-key revoke ID_OR_TOKEN

Settings come from the environment (see README): DATABASE_URL, SQLITE_PATH, PORT, ...`;

class UsageError extends Error {}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing ${flag}`);
  return value;
}

const OPTIONS = {
  demo: { type: 'boolean' },
  json: { type: 'boolean' },
  name: { type: 'string' },
  country: { type: 'string' },
  timezone: { type: 'string' },
  plan: { type: 'string' },
  'rate-limit': { type: 'string' },
  pbx: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  role: { type: 'string' },
  kind: { type: 'string' },
  scopes: { type: 'string' },
  'operator-wide': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    if (!command && !values.help) process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const single = ['serve', 'migrate', 'seed', 'openapi'].includes(command);
  if (!single && !sub) throw new UsageError(`${command} needs a sub-command`);
  switch (single ? command : `${command} ${sub}`) {
    case 'serve':
      return (await loadServer()).serve(config);
    case 'migrate':
      return withDatabase(config, false, async (database) => {
        const applied = await migrateToLatest(database.db);
        process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Database is up to date.\n');
      });
    case 'seed': {
      if (!values.demo) throw new UsageError('seed needs --demo');
      return withDatabase(config, true, async (database) => {
        const { seedDemo } = await loadDemoSeed();
        const { seed, created } = await seedDemo(commandContext(config, database));
        if (values.json) process.stdout.write(`${JSON.stringify(seed, null, 2)}\n`);
        else
          process.stdout.write(
            created
              ? `Seeded ${seed.tenants.length} demo tenants. Use --json for logins and keys.\n`
              : 'Already seeded; --json prints the same logins and keys.\n',
          );
      });
    }
    case 'openapi':
      return printOpenApi(config);
    case 'tenant create':
      return withDatabase(config, true, async (database) => {
        const rateLimit = values['rate-limit'] === undefined ? null : Number(values['rate-limit']);
        if (rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1)) throw new UsageError('--rate-limit must be a positive integer');
        const country = values.country ?? 'LU';
        if (!/^[A-Za-z]{2}$/.test(country)) throw new UsageError('--country must be a two-letter ISO code');
        const pbx = await insertPbx(database.db, commandContext(config, database).clock, {
          name: need(values.name, '--name'),
          countryCode: country,
          timezone: values.timezone,
          plan: values.plan,
          rateLimitPerMinute: rateLimit,
        });
        process.stdout.write(`${JSON.stringify(pbx)}\n`);
      });
    case 'user create':
      return withDatabase(config, true, async (database) => {
        const pbxId = need(values.pbx, '--pbx');
        const email = need(values.email, '--email');
        if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--email is not an e-mail address');
        const role = values.role ?? 'user';
        if (role !== 'user' && role !== 'admin') throw new UsageError('--role must be user or admin');
        if (!(await findPbx(database.db, pbxId))) throw new UsageError(`no PBX with id ${pbxId}`);
        const { insertUser } = await loadDirectory();
        try {
          const user = await insertUser(database.db, commandContext(config, database).clock, {
            pbx_id: pbxId,
            email,
            password: values.password ?? null,
            first_name: values['first-name'],
            last_name: values['last-name'],
            role,
          });
          process.stdout.write(`${JSON.stringify(user)}\n`);
        } catch (error) {
          if (isUniqueViolation(error)) throw new UsageError(`a user with e-mail ${email} already exists`);
          throw error;
        }
      });
    case 'api-key create':
      return withDatabase(config, true, async (database) => {
        const kind = apiKeyKind(need(values.kind, '--kind'));
        const scopes = values.scopes ? values.scopes.split(',').map((s) => s.trim()) : [];
        const unknown = scopes.filter((s) => !(INTEGRATION_SCOPES as readonly string[]).includes(s));
        if (unknown.length) throw new UsageError(`unknown scope(s): ${unknown.join(', ')}; known: ${INTEGRATION_SCOPES.join(', ')}`);
        if (kind === 'integration' && scopes.length === 0) throw new UsageError('an integration key needs --scopes');
        const operatorWide = values['operator-wide'] === true;
        if (operatorWide && (kind !== 'internal' || values.pbx)) throw new UsageError('--operator-wide is for an internal key without --pbx');
        if (kind === 'internal' && !operatorWide && !values.pbx) {
          throw new UsageError('an internal key needs --pbx PBX_ID, or --operator-wide for a key serving every PBX');
        }
        const pbxId = operatorWide ? null : need(values.pbx, '--pbx');
        if (pbxId && !(await findPbx(database.db, pbxId))) throw new UsageError(`no PBX with id ${pbxId}`);
        const ctx = commandContext(config, database);
        const name = values.name ?? `${kind} key`;
        const { row, token } = await createApiKey(database.db, ctx.clock, ctx.secrets, { pbxId, kind, name, scopes, operatorWide });
        process.stdout.write(`${JSON.stringify({ id: row.id, kind, pbx_id: row.pbx_id, operator_wide: operatorWide, name: row.name, scopes, token })}\n`);
      });
    case 'api-key list':
      return withDatabase(config, true, async (database) => {
        const kind = values.kind === undefined ? undefined : apiKeyKind(values.kind);
        process.stdout.write(`${JSON.stringify(await listApiKeys(database.db, { pbxId: values.pbx, kind }), null, 2)}\n`);
      });
    case 'api-key revoke':
      return withDatabase(config, true, async (database) => {
        const revoked = await revokeApiKey(database.db, commandContext(config, database).clock, need(arg, 'ID_OR_TOKEN'));
        if (!revoked) throw new UsageError('no active key with that id or token');
        await announceChange(config.redisUrl, config.redisKeyPrefix, null);
        process.stdout.write(config.redisUrl ? 'Revoked.\n' : `Revoked. Running servers refuse it within CACHE_TTL_MS (${config.cacheTtlMs} ms).\n`);
      });
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  }
}

function apiKeyKind(value: string): ApiKeyKind {
  const kind = value.replace('-', '_');
  if (kind !== 'pbx' && kind !== 'integration' && kind !== 'internal' && kind !== 'pbx_server') {
    throw new UsageError('--kind must be pbx, integration, internal or pbx-server');
  }
  return kind;
}

async function withDatabase(
  config: Config,
  migrate: boolean,
  work: (database: Awaited<ReturnType<typeof openMigratedDatabase>>) => Promise<void>,
): Promise<void> {
  const database = migrate ? await openMigratedDatabase(config) : openConfiguredDatabase(config);
  try {
    await work(database);
  } finally {
    await database.close();
  }
}

/** The document as the server builds it, from an app on a throw-away database, with no background work. */
async function printOpenApi(config: Config): Promise<void> {
  const { buildApp } = await loadApp();
  const database = openDatabase({ sqlitePath: ':memory:' });
  const quiet = { ...config, redisUrl: null, jobWorkerEnabled: false, amiEventsEnabled: false };
  const app = await buildApp({ config: quiet, database, logger: false });
  try {
    await app.ready();
    process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
    await database.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`pbx-api: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`pbx-api: ${(error as Error).message}\n`);
  process.exit(1);
});
