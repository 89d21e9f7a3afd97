import type { AppContext } from '../../../../platform/context.js';
import { EngineFailure } from '../engine.js';
import { engineFailure, type AmiConnection } from './asterisk-engine.js';
import { AmiError, type AmiClient } from './client.js';
import { connectAmi } from './host-guard.js';

export type CheckName = 'connect' | 'login' | 'originate' | 'config' | 'system' | 'read_call' | 'read_cdr' | 'version';
export interface ConnectionCheck {
  name: CheckName;
  /** `unverified`: the PBX would not say (the AMI user lacks the `command` class); does not fail the test. */
  status: 'passed' | 'failed' | 'unverified';
  message: string;
}

/**
 * The write classes the engine needs, each told by an action ListCommands lists (it lists only
 * what the user may send): `originate` for calls, `config` for the configuration push
 * (CreateConfig, UpdateConfig, ShowDialPlan), `system` for loading and reloading modules and
 * listing the endpoints a push checks (ModuleLoad, PJSIPShowEndpoints).
 */
const WRITE_CHECKS = [
  ['originate', 'Originate', 'originate', 'place calls (Originate)'],
  ['config', 'UpdateConfig', 'config', "write the tenant's configuration files (CreateConfig, UpdateConfig, ShowDialPlan)"],
  ['system', 'ModuleLoad', 'system', 'load and reload modules and list endpoints after a push (Reload, ModuleLoad, PJSIPShowEndpoints)'],
] as const;

/**
 * What the engine needs from the AMI user, each as a named check: the connection and the login,
 * the write classes of calls and of the configuration push (WRITE_CHECKS), and the `call` and
 * `cdr` read classes (its call progress and its history), read from `manager show user <name>`
 * when the user may run CLI commands. Any failed check fails the test with 502 and the list;
 * otherwise the version is read for the answer.
 */
export async function testAmiConnection(ctx: AppContext, connection: AmiConnection, trace: boolean) {
  const started = Date.now();
  const checks: ConnectionCheck[] = [];
  const fail = (error: unknown, client: AmiClient | null) => {
    const failure = engineFailure(error, trace && client ? client.trace : null);
    return new EngineFailure(failure.statusCode, failure.message, failure.trace, { checks });
  };
  let client: AmiClient;
  try {
    client = await connectAmi(ctx.config, connection, { trace });
  } catch (error) {
    checks.push({ name: 'connect', status: 'failed', message: (error as Error).message });
    throw fail(error, null);
  }
  checks.push({ name: 'connect', status: 'passed', message: `Connected: ${client.banner}.` });
  try {
    await client.login(connection.username, connection.secret);
  } catch (error) {
    checks.push({ name: 'login', status: 'failed', message: (error as Error).message });
    if (error instanceof AmiError && error.kind === 'login_failed') await client.logoff();
    else client.close();
    throw fail(error, client);
  }
  checks.push({ name: 'login', status: 'passed', message: `Logged in as ${connection.username}.` });
  try {
    const { response: commands } = await client.action([['Action', 'ListCommands']]);
    for (const [name, action, writeClass, what] of WRITE_CHECKS) {
      checks.push(
        commands.get(action) !== undefined
          ? { name, status: 'passed', message: `The AMI user may ${what}.` }
          : { name, status: 'failed', message: `The AMI user may not ${what}: add \`${writeClass}\` to its \`write =\` line in manager.conf.` },
      );
    }
    const user = await cli(client, `manager show user ${connection.username}`);
    const read = user?.map((line) => /^\s*read perm:\s*(.*)$/i.exec(line)?.[1]).find((value) => value !== undefined);
    const classes = new Set((read ?? '').split(/[,\s]+/).filter(Boolean));
    for (const [name, wanted, what] of [
      ['read_call', 'call', 'call progress (Newchannel, Hangup, OriginateResponse)'],
      ['read_cdr', 'cdr', 'call detail records (Cdr, from cdr_manager)'],
    ] as const) {
      if (read === undefined) {
        checks.push({
          name,
          status: 'unverified',
          message: `Could not read the AMI user's permissions (it lacks the \`command\` class); make sure it may read \`${wanted}\` events: ${what}.`,
        });
      } else if (classes.has(wanted) || classes.has('all')) {
        checks.push({ name, status: 'passed', message: `The AMI user receives ${what}.` });
      } else {
        checks.push({ name, status: 'failed', message: `The AMI user does not receive ${what}: add \`${wanted}\` to its \`read =\` line in manager.conf.` });
      }
    }
    const version = (await cli(client, 'core show version'))?.find((line) => line.trim())?.trim() ?? null;
    checks.push(
      version
        ? { name: 'version', status: 'passed', message: version }
        : { name: 'version', status: 'unverified', message: 'The Asterisk version could not be read (the AMI user lacks the `command` class).' },
    );
    await client.action([['Action', 'Ping']]);
    await client.logoff();
    const failed = checks.filter((check) => check.status === 'failed');
    if (failed.length) {
      throw new EngineFailure(502, `The AMI user lacks what the engine needs: ${failed.map((check) => check.name).join(', ')}.`, trace ? client.trace : null, {
        checks,
      });
    }
    return {
      ami_version: client.banner.replace(/^Asterisk Call Manager\//, ''),
      asterisk_version: version,
      latency_ms: Date.now() - started,
      checks,
      trace: trace ? client.trace : null,
    };
  } catch (error) {
    if (error instanceof EngineFailure) throw error;
    client.close();
    throw fail(error, client);
  }
}

/** Output lines of a CLI command, or null when the AMI user may not run it. */
async function cli(client: AmiClient, command: string): Promise<string[] | null> {
  const { response } = await client.action([
    ['Action', 'Command'],
    ['Command', command],
  ]);
  const answer = response.get('Response')?.toLowerCase();
  return answer === 'success' || answer === 'follows' ? response.output : null;
}
