import { buildApp } from './app.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { seedDemoOnce, type DemoSeed } from './demo-seed.js';
import { commandContext, openMigratedDatabase } from './runtime.js';

/** Migrates, seeds the demo data into an empty database when enabled, listens, and shuts down gracefully. */
export async function serve(config: Config): Promise<void> {
  const database = await openMigratedDatabase(config);
  const app = await buildApp({ config, database });
  await seedOnStart(config, database, (text) => app.log.info(text.trimEnd()));
  await app.listen({ host: config.host, port: config.port });
  if (app.metricsServer && config.metricsListen) {
    await app.metricsServer.listen(config.metricsListen);
    const { host, port } = config.metricsListen;
    app.log.info(`metrics at http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`);
  }
  app.log.info(`pbx-api serving ${config.baseUrl} (docs at ${config.baseUrl}/docs) on ${database.dialect}`);
  for (const warning of config.startupWarnings) app.log.warn(warning);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing in-flight requests`);
    const timer = setTimeout(() => process.exit(1), 15_000).unref();
    await app.close();
    await database.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * With `seedDemo` (SEED_DEMO; on by default outside production only), an empty database gets the
 * demo data and one seeded before shows its logins again. Passwords are printed outside
 * production only: there the logins stay behind `pbx-api seed --demo --json`.
 */
export async function seedOnStart(config: Config, database: Database, write: (text: string) => unknown = (text) => process.stdout.write(text)): Promise<void> {
  if (!config.seedDemo) return;
  const seeded = await seedDemoOnce(commandContext(config, database), { onlyIntoEmpty: true });
  if (seeded) write(demoBanner(seeded.seed, seeded.created, config.env !== 'production'));
}

function demoBanner(seed: DemoSeed, created: boolean, showPasswords: boolean): string {
  if (!showPasswords) {
    const lines = [created ? 'Demo data seeded (SEED_DEMO=true):' : 'Demo data present (SEED_DEMO=true):'];
    for (const tenant of seed.tenants) lines.push(`  ${tenant.name} (pbx ${tenant.pbx_id})`);
    lines.push('  Its accounts have published passwords: never let real users reach this instance.');
    lines.push('  Logins, keys and sample ids: npx pbx-api seed --demo --json');
    return `${lines.join('\n')}\n`;
  }
  const lines = [created ? 'Demo data seeded. Log in with:' : 'Demo logins:'];
  for (const tenant of seed.tenants) {
    lines.push(`  ${tenant.name} (pbx ${tenant.pbx_id})`);
    lines.push(`    admin  ${tenant.admin.email} / ${tenant.admin.password}`);
    for (const user of tenant.users.filter((u) => u.id !== tenant.admin.id)) lines.push(`    user   ${user.email} / ${user.password}`);
  }
  lines.push('  All demo keys and sample ids: npx pbx-api seed --demo --json');
  return `${lines.join('\n')}\n`;
}
