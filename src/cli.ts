#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

type OptionName = keyof typeof OPTIONS;

interface Command {
  /** Its lines in the usage: the command's words, then its arguments and options. */
  usage: string[];
  summary: string;
  /** What `<command> --help` adds to the usage and summary. */
  details?: string;
  /** The options it takes, besides --help and --version. */
  options: OptionName[];
  /** How many arguments may follow the command's words. */
  args?: number;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: ['serve'],
    summary: 'migrate, seed demo data into an empty database (not in production unless SEED_DEMO=true), serve the API',
    details: `Listens on HOST:PORT (127.0.0.1:8080); BASE_URL is the public address its links and documents name.
SIGTERM or Ctrl-C lets requests in flight finish first. In production it warns (one log line each)
when it runs on SQLite, without SMTP_URL or without BASE_URL.`,
    options: [],
  },
  migrate: { usage: ['migrate'], summary: 'apply pending database migrations', options: [] },
  seed: {
    usage: ['seed --demo [--json]'],
    summary: 'seed the demo tenants (idempotent); --json prints only the JSON',
    details: `  --demo   the two demo tenants (Acme Logistics, Globex Handels) with users, keys and sample data
  --json   print their logins, API keys and sample ids as JSON, the same JSON on every run`,
    options: ['demo', 'json'],
  },
  openapi: {
    usage: ['openapi'],
    summary: 'print the OpenAPI document the server serves at /api/v1/openapi.json',
    details: 'Built as the server builds it, on a throw-away in-memory database: the configured one is not opened.',
    options: [],
  },
  asyncapi: {
    usage: ['asyncapi'],
    summary: 'print the AsyncAPI document of the live events the server serves at /api/v1/asyncapi.json',
    details: 'Built as the server builds it, on a throw-away in-memory database: the configured one is not opened.',
    options: [],
  },
  'tenant create': {
    usage: ['tenant create --name NAME [--country LU] [--timezone Europe/Luxembourg] [--plan standard] [--rate-limit N]'],
    summary: 'create a PBX (a tenant); prints it as JSON',
    details: `  --country      two-letter ISO code of the PBX's country (LU)
  --timezone     IANA time zone of the PBX
  --plan         plan name (standard)
  --rate-limit   requests a minute per user or key, instead of RATE_LIMIT_PER_MINUTE`,
    options: ['name', 'country', 'timezone', 'plan', 'rate-limit'],
  },
  'user create': {
    usage: ['user create --pbx PBX_ID --email EMAIL [--password PASSWORD] [--first-name F] [--last-name L] [--role user|admin]'],
    summary: 'create a user of a PBX; prints it as JSON',
    details: `  --password     at least 8 characters. Without it the user has no password and signs in with a
                 magic link (POST /magic-link) or a one-time code (POST /passwordless/login) e-mailed
                 to EMAIL; an administrator can set one later (PATCH /users/{id} {"password": ...})
  --role         user (the default) or admin`,
    options: ['pbx', 'email', 'password', 'first-name', 'last-name', 'role'],
  },
  'api-key create': {
    usage: [
      'api-key create --kind pbx|integration|internal|pbx-server --pbx PBX_ID [--name NAME] [--scopes a,b]',
      'api-key create --kind internal --operator-wide [--name NAME]',
    ],
    summary: 'create an API key of a PBX, or an operator-wide internal key; prints it, token included, as JSON',
    details: `  --scopes          an integration key's scopes: ${INTEGRATION_SCOPES.join(', ')}
  --operator-wide   an internal key serving every PBX: its name is marked, its every use logged`,
    options: ['kind', 'pbx', 'name', 'scopes', 'operator-wide'],
  },
  'api-key list': {
    usage: ['api-key list [--pbx PBX_ID] [--kind KIND]'],
    summary: 'the keys (never their tokens) as JSON, operator-wide ones marked',
    options: ['pbx', 'kind'],
  },
  'api-key revoke': { usage: ['api-key revoke ID_OR_TOKEN'], summary: 'revoke a key, named by its id or its token', options: [], args: 1 },
};

/** A usage line with its summary beside it, or below it when the line is long. */
function overviewLines(name: string): string[] {
  const { usage, summary } = COMMANDS[name];
  const lines = usage.map((line) => `  ${line}`);
  const last = lines.length - 1;
  if (lines[last].length < 36) lines[last] = `${lines[last].padEnd(38)}${summary}`;
  else lines.push(`${' '.repeat(38)}${summary}`);
  return lines;
}

const USAGE = `Usage: pbx-api <command> [options]

Commands:
${Object.keys(COMMANDS).flatMap(overviewLines).join('\n')}

  pbx-api <command> --help            that command's options
  pbx-api --version                   the version

Settings come from the environment (see README): DATABASE_URL (unset: SQLite under DATA_DIR), DATA_DIR, PORT, ...
Commands that open the database name it, and the data folder, on their first line (on stderr).`;

/** `pbx-api user create --help`, or `pbx-api user --help` for a group of commands. */
function commandUsage(name: string): string {
  const group = Object.keys(COMMANDS).filter((command) => command.startsWith(`${name} `));
  if (group.length)
    return `Usage: pbx-api ${name} <${group.map((command) => command.slice(name.length + 1)).join('|')}> [options]\n\n${group.flatMap(overviewLines).join('\n')}`;
  const command = COMMANDS[name];
  const usage = command.usage.map((line, i) => `${i === 0 ? 'Usage:' : '      '} pbx-api ${line}`).join('\n');
  return `${usage}\n\n${command.summary[0].toUpperCase()}${command.summary.slice(1)}.${command.details ? `\n\n${command.details}` : ''}`;
}

class UsageError extends Error {}

/** The command being run, once known: a usage error then shows its usage rather than all of them. */
let current: string | null = null;

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
  version: { type: 'boolean' },
} as const;

/** Edits (one letter added, removed or changed) from one word to another. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/** `unknown command "sevre"; did you mean "serve"?`, or the names to choose from when none is close. */
function unknownCommand(given: string, names: string[]): UsageError {
  const [closest] = [...names].sort((a, b) => distance(given, a) - distance(given, b));
  const close = distance(given, closest) <= Math.max(2, Math.floor(closest.length / 3));
  return new UsageError(`unknown command "${given}"; ${close ? `did you mean "${closest}"?` : `the commands are ${names.join(', ')}`}`);
}

/** The command the words name (`serve`, `user create`) and the arguments after it. */
function resolveCommand(words: string[]): { name: string; args: string[] } {
  const names = Object.keys(COMMANDS);
  const [first, second] = words;
  if (names.includes(first)) return { name: first, args: words.slice(1) };
  const group = names.filter((name) => name.startsWith(`${first} `));
  if (!group.length) throw unknownCommand(first, [...new Set(names.map((name) => name.split(' ')[0]))]);
  current = first;
  if (second === undefined) throw new UsageError(`${first} needs a sub-command: ${group.map((name) => name.slice(first.length + 1)).join(', ')}`);
  if (!group.includes(`${first} ${second}`)) throw unknownCommand(`${first} ${second}`, group);
  return { name: `${first} ${second}`, args: words.slice(2) };
}

/** The version in the package.json above this file (src/ in a clone, dist/bundle/ when built). */
function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'pbx-api' && manifest.version) return manifest.version;
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

/** Which database and data folder a command works on: a command run in the wrong folder would otherwise make a new one there unseen. */
function databaseLine(config: Config): string {
  if (!config.databaseUrl) return `pbx-api: SQLite database ${config.sqlitePath} (data folder ${config.dataDir})`;
  const url = new URL(config.databaseUrl);
  const host = url.hostname ? `${url.hostname}${url.port ? `:${url.port}` : ''}` : (url.searchParams.get('host') ?? 'the local socket');
  const user = url.username ? ` as ${decodeURIComponent(url.username)}` : '';
  return `pbx-api: PostgreSQL database "${decodeURIComponent(url.pathname.slice(1))}" on ${host}${user} (data folder ${config.dataDir})`;
}

/** parseArgs, with its messages made short (`unknown option --bogus`) and the command found for the usage shown with them. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const words = argv.filter((word) => !word.startsWith('-'));
    current = [words.slice(0, 2).join(' '), words[0]].find((name) => name && name in COMMANDS) ?? null;
    const { code, message } = error as { code?: string; message: string };
    const option = /^(?:Unknown option|Option) '([^' ]+)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) throw new UsageError(`unknown option ${option}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
      throw new UsageError(message.includes('does not take') ? `${option} takes no value` : `${option} needs a value`);
    }
    throw error;
  }
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv);
  if (values.version) {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  const words = positionals[0] === 'help' ? positionals.slice(1) : positionals;
  const asksHelp = values.help === true || positionals[0] === 'help';
  if (!words.length) {
    process.stdout.write(`${USAGE}\n`);
    if (!asksHelp) process.exitCode = 2;
    return;
  }
  if (asksHelp && words.length === 1 && !(words[0] in COMMANDS) && Object.keys(COMMANDS).some((name) => name.startsWith(`${words[0]} `))) {
    process.stdout.write(`${commandUsage(words[0])}\n`);
    return;
  }
  const { name, args } = resolveCommand(words);
  current = name;
  if (asksHelp) {
    process.stdout.write(`${commandUsage(name)}\n`);
    return;
  }
  const foreign = (Object.keys(values) as OptionName[]).find((option) => values[option] !== undefined && !COMMANDS[name].options.includes(option));
  if (foreign) throw new UsageError(`${name} does not take --${foreign}`);
  if (args.length > (COMMANDS[name].args ?? 0)) throw new UsageError(`${name} does not take the argument "${args[COMMANDS[name].args ?? 0]}"`);
  const [arg] = args;
  const config = loadConfig();
  if (name !== 'openapi' && name !== 'asyncapi') process.stderr.write(`${databaseLine(config)}\n`);
  switch (name) {
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
      return printDocument(config, 'openapi');
    case 'asyncapi':
      return printDocument(config, 'asyncapi');
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
        const password = values.password;
        if (password !== undefined && (password.length < 8 || password.length > 255)) throw new UsageError('--password must be 8 to 255 characters');
        if (!(await findPbx(database.db, pbxId))) throw new UsageError(`no PBX with id ${pbxId}`);
        const { insertUser } = await loadDirectory();
        try {
          const user = await insertUser(database.db, commandContext(config, database).clock, {
            pbx_id: pbxId,
            email,
            password: password ?? null,
            first_name: values['first-name'],
            last_name: values['last-name'],
            role,
          });
          process.stdout.write(`${JSON.stringify(user)}\n`);
          if (password === undefined) process.stderr.write(`${noPasswordNotice(config, user.email, user.id)}\n`);
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
      throw new UsageError(`unknown command "${name}"`);
  }
}

/** A user made without --password can still sign in: how, and how a password is set later. */
function noPasswordNotice(config: Config, email: string, id: string): string {
  const delivery = config.smtpUrl ? 'e-mailed to that address' : `written to ${join(config.dataDir, 'outbox')} while SMTP_URL is not set`;
  return (
    `pbx-api: ${email} has no password: the user signs in with a magic link (POST /magic-link) or a one-time code ` +
    `(POST /passwordless/login), ${delivery}; an administrator can set one with PATCH /users/${id} {"password": "..."}.`
  );
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

/** The OpenAPI or AsyncAPI document as the server builds it, from an app on a throw-away database, with no background work. */
async function printDocument(config: Config, document: 'openapi' | 'asyncapi'): Promise<void> {
  const { buildApp } = await loadApp();
  const { buildAsyncApi } = await import('./http/asyncapi.js');
  const database = openDatabase({ sqlitePath: ':memory:' });
  const quiet = { ...config, redisUrl: null, jobWorkerEnabled: false, amiEventsEnabled: false };
  const app = await buildApp({ config: quiet, database, logger: false });
  try {
    await app.ready();
    const openapi = app.swagger();
    process.stdout.write(`${JSON.stringify(document === 'openapi' ? openapi : buildAsyncApi(quiet, openapi), null, 2)}\n`);
  } finally {
    await app.close();
    await database.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`pbx-api: ${(error as Error).message}\n\n${current ? commandUsage(current) : USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`pbx-api: ${(error as Error).message}\n`);
  process.exit(1);
});
