import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AmiError } from './client.js';
import {
  deliverConfigurationOverAmi,
  EMPTY_SOURCE,
  MAX_HEADERS,
  previousName,
  stagingName,
  updateConfigActions,
  type DeliveredFile,
} from './config-delivery.js';
import { AmiTestPeer, renderPeerConfig } from '../../../../../test/ami-test-peer.js';

const config = { amiConnectTimeoutMs: 500, amiActionTimeoutMs: 400, amiAllowedHosts: [], amiAllowLoopback: true };

const extensions: DeliveredFile = {
  name: 'extensions.conf',
  sections: [
    { name: 'pbx-globals', template: true, lines: [{ key: 'TIMEOUT', value: '20' }] },
    { name: 'pbx-more', template: true, lines: [] },
    {
      name: 'pbx-internal',
      inherits: ['pbx-globals', 'pbx-more'],
      lines: [
        { key: 'exten', value: '100,1,Dial(PJSIP/alice,20)', object: true },
        { key: 'same', value: 'n,Hangup()', object: true },
      ],
    },
  ],
};
const pjsip: DeliveredFile = {
  name: 'pjsip.conf',
  sections: [
    {
      name: 'alice',
      lines: [
        { key: 'type', value: 'endpoint' },
        { key: 'aors', value: 'alice' },
      ],
    },
    {
      name: 'alice',
      lines: [
        { key: 'type', value: 'aor' },
        { key: 'max_contacts', value: '1' },
      ],
    },
  ],
};

const live = (name: string) => `pbxapi-${name.replace('.conf', '')}-tpeer.conf`;

describe('configuration delivery over AMI', () => {
  const peer = new AmiTestPeer();
  let target: { host: string; port: number; username: string; secret: string; prefix: string };

  beforeAll(async () => {
    target = { host: '127.0.0.1', port: await peer.start(), username: 'admin', secret: 's3cr3t-ami', prefix: 'tpeer' };
  });
  afterAll(() => peer.stop());
  beforeEach(() => {
    peer.configFiles.clear();
    peer.reloads.length = 0;
    peer.received.length = 0;
    peer.running.clear();
    peer.declined.clear();
    peer.unloadable.clear();
    for (const type of ['extensions', 'pjsip', 'queues', 'voicemail', 'musiconhold']) peer.hostIncludes.add(type);
    peer.configBehaviour = { createConfig: 'success', updateConfigRefuses: null, reloadRefuses: null, silentOn: null };
  });

  it("stages every file, keeps the live ones, then writes the tenant's own files and reloads what changed or was never read", async () => {
    const result = await deliverConfigurationOverAmi(config, target, [extensions, pjsip], ['extensions.conf']);
    expect(result.written).toEqual([live('extensions.conf'), live('pjsip.conf')]);
    // pjsip.conf did not change, but its file is new on this PBX: res_pjsip never read it.
    expect(result.reloaded).toEqual(['pbx_config.so', 'res_pjsip.so']);
    // Templates written out: Append cannot reach a template category on Asterisk.
    expect(renderPeerConfig(peer.configFiles.get(live('extensions.conf'))!)).toBe(
      '[pbx-internal]\nTIMEOUT = 20\nexten => 100,1,Dial(PJSIP/alice,20)\nsame => n,Hangup()\n',
    );
    // Two sections of one name (an endpoint and its AOR) each keep their own lines.
    expect(renderPeerConfig(peer.configFiles.get(live('pjsip.conf'))!)).toBe(
      '[alice]\ntype = endpoint\naors = alice\n\n[alice]\ntype = aor\nmax_contacts = 1\n',
    );
    const updates = peer.actions('UpdateConfig');
    // Every file staged before any live file is touched; the live ones kept back, then replaced.
    expect(updates.map((m) => [m.get('SrcFilename'), m.get('DstFilename')])).toEqual([
      [EMPTY_SOURCE, stagingName(live('extensions.conf'))],
      [EMPTY_SOURCE, stagingName(live('pjsip.conf'))],
      [live('extensions.conf'), previousName(live('extensions.conf'))],
      [live('pjsip.conf'), previousName(live('pjsip.conf'))],
      [stagingName(live('extensions.conf')), live('extensions.conf')],
      [stagingName(live('pjsip.conf')), live('pjsip.conf')],
    ]);
    expect(stagingName(live('pjsip.conf'))).toBe('pbxapi-staging-pjsip-tpeer.conf');
    // No host file is ever created or written.
    expect(peer.actions('CreateConfig').map((m) => m.get('Filename'))).not.toContain('pjsip.conf');
    // What Asterisk loaded is checked: the dialplan context and the endpoint.
    expect(peer.actions('ShowDialPlan').map((m) => m.get('Context'))).toEqual(['pbx-internal']);
    expect(peer.actions('PJSIPShowEndpoints')).toHaveLength(1);

    // The files exist from now on: "File exists" is no failure, and only changed files reload.
    peer.reloads.length = 0;
    await deliverConfigurationOverAmi(config, target, [extensions], []);
    expect(peer.reloads).toEqual([]);
  });

  it('splits a large file into actions of at most 128 headers, and a file of no sections empties the live one', async () => {
    const big: DeliveredFile = {
      name: 'queues.conf',
      sections: Array.from({ length: 40 }, (_, i) => ({
        name: `queue-${i}`,
        lines: Array.from({ length: 5 }, (_, j) => ({ key: 'member', value: `PJSIP/u${i}-${j}` })),
      })),
    };
    const actions = updateConfigActions(big);
    expect(actions.length).toBeGreaterThan(3);
    for (const action of actions) expect(action.length + 1).toBeLessThanOrEqual(MAX_HEADERS);
    await deliverConfigurationOverAmi(config, target, [big], ['queues.conf']);
    const written = peer.configFiles.get(live('queues.conf'))!;
    expect(written).toHaveLength(40);
    expect(written[39].lines.map((line) => line.value)).toEqual(['PJSIP/u39-0', 'PJSIP/u39-1', 'PJSIP/u39-2', 'PJSIP/u39-3', 'PJSIP/u39-4']);
    expect(peer.reloads).toEqual(['app_queue.so']);

    await deliverConfigurationOverAmi(config, target, [{ name: 'queues.conf', sections: [] }], ['queues.conf']);
    expect(peer.configFiles.get(live('queues.conf'))).toEqual([]);
  });

  it('refuses what Asterisk could not read before anything is sent', () => {
    const long = { name: 'extensions.conf', sections: [{ name: 'x', lines: [{ key: 'exten', value: 'a'.repeat(1100), object: true }] }] };
    expect(() => updateConfigActions(long)).toThrow(/more than Asterisk's manager reads/);
    expect(() => updateConfigActions({ name: '../etc/passwd', sections: [] })).toThrow(AmiError);
    expect(() => updateConfigActions({ name: 'a.conf', sections: [{ name: 'x', lines: [{ key: 'k', value: 'v\nexten => evil' }] }] })).toThrow(/line break/);
  });

  it('fails on each refused action with the PBX answer; a refusal after the files went live puts the previous ones back', async () => {
    const failing = async (files = [extensions, pjsip], changed = ['extensions.conf', 'pjsip.conf']) => {
      const error = await deliverConfigurationOverAmi(config, target, files, changed).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AmiError);
      expect((error as AmiError).kind).toBe('rejected');
      return error as AmiError;
    };
    peer.configBehaviour.createConfig = 'error';
    let error = await failing();
    expect(error.message).toBe(`Creating ${EMPTY_SOURCE}: the PBX answered Permission denied.`);
    expect(peer.actions('UpdateConfig')).toHaveLength(0);

    peer.configBehaviour.createConfig = 'success';
    peer.configBehaviour.updateConfigRefuses = stagingName(live('pjsip.conf'));
    error = await failing();
    expect(error.message).toBe(`Staging ${live('pjsip.conf')}: the PBX answered Given category does not exist.`);
    // Nothing went live (the live files only created empty, as CreateConfig does), nothing reloaded.
    expect(peer.configFiles.get(live('extensions.conf'))).toEqual([]);
    expect(peer.reloads).toEqual([]);

    // A version that runs, then a refused reload of the next one: the running files come back.
    peer.configBehaviour.updateConfigRefuses = null;
    await deliverConfigurationOverAmi(config, target, [extensions, pjsip], ['extensions.conf', 'pjsip.conf']);
    const before = renderPeerConfig(peer.configFiles.get(live('extensions.conf'))!);
    const next: DeliveredFile = { name: 'extensions.conf', sections: [{ name: 'pbx-next', lines: [{ key: 'exten', value: '200,1,Hangup()', object: true }] }] };
    peer.configBehaviour.reloadRefuses = 'res_pjsip.so';
    peer.reloads.length = 0;
    error = await failing([next, pjsip]);
    expect(error.message).toBe('Reloading res_pjsip.so: the PBX answered Module does not support reload. The previous configuration was restored and runs.');
    expect(renderPeerConfig(peer.configFiles.get(live('extensions.conf'))!)).toBe(before);
    expect(peer.running.get('pbx_config.so')!.map((c) => c.name)).toEqual(['pbx-internal']);
    peer.configBehaviour.reloadRefuses = null;

    peer.modules.delete('res_musiconhold.so');
    const missing = await failing([{ name: 'musiconhold.conf', sections: [] }], ['musiconhold.conf']);
    expect(missing.message).toMatch(/^Reloading res_musiconhold.so: the PBX answered No such module\./);
    peer.modules.add('res_musiconhold.so');
  });

  it('loads a module that declined at start instead of reloading it, and says why when it cannot', async () => {
    const queues: DeliveredFile = { name: 'queues.conf', sections: [{ name: 'tpeer-queue-1', lines: [{ key: 'strategy', value: 'ringall' }] }] };
    peer.declined.add('app_queue.so');
    await deliverConfigurationOverAmi(config, target, [queues], ['queues.conf']);
    expect(peer.actions('ModuleLoad').map((m) => m.get('Module'))).toEqual(['app_queue.so']);
    expect(peer.actions('QueueSummary')).toHaveLength(1);

    peer.declined.add('app_queue.so');
    peer.unloadable.add('app_queue.so');
    const error = (await deliverConfigurationOverAmi(config, target, [queues], ['queues.conf']).catch((e: unknown) => e)) as AmiError;
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/^app_queue.so is not running on the PBX .* create it as the README shows\./);
  });

  it("fails, and restores the previous files, when the host does not include the tenant's files", async () => {
    peer.hostIncludes.delete('pjsip');
    const error = (await deliverConfigurationOverAmi(config, target, [extensions, pjsip], ['extensions.conf', 'pjsip.conf']).catch(
      (e: unknown) => e,
    )) as AmiError;
    expect(error.kind).toBe('rejected');
    expect(error.message).toBe(
      `Asterisk did not load the endpoints of ${live('pjsip.conf')}: the host's pjsip.conf must read it with #tryinclude "pbxapi-pjsip-*.conf" (README, "The operator's Asterisk"). The previous configuration was restored and runs.`,
    );
    expect(peer.configFiles.get(live('pjsip.conf'))).toEqual([]);
  });

  it('tells a check Asterisk refused (an AMI user without the system class) from files it did not load', async () => {
    peer.permissions.set('admin', { read: ['call', 'cdr'], write: ['config'] });
    try {
      const error = (await deliverConfigurationOverAmi(config, target, [extensions, pjsip], ['extensions.conf', 'pjsip.conf']).catch(
        (e: unknown) => e,
      )) as AmiError;
      expect(error.message).toMatch(
        /^Checking the endpoints Asterisk loaded: the PBX answered Permission denied \(the AMI user needs the config and system write classes/,
      );
      expect(error.message).toMatch(/The previous configuration was restored and runs\.$/);
    } finally {
      peer.permissions.delete('admin');
    }
  });

  it('stops before any file goes live once the delivery lost its turn', async () => {
    const turn = new AbortController();
    turn.abort(new Error('turn lost'));
    const error = await deliverConfigurationOverAmi(config, target, [extensions, pjsip], ['extensions.conf'], { signal: turn.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('turn lost');
    expect(peer.actions('UpdateConfig').filter((m) => m.get('DstFilename') === live('extensions.conf'))).toEqual([]);
    expect(peer.reloads).toEqual([]);
  });

  it('times out on a PBX that stops answering, and fails on a wrong login, neither as a rejection of the files', async () => {
    peer.configBehaviour.silentOn = 'reload';
    const silent = await deliverConfigurationOverAmi(config, target, [extensions], ['extensions.conf']).catch((e: AmiError) => e);
    expect((silent as AmiError).kind).toBe('timeout');
    peer.configBehaviour.silentOn = null;
    const login = await deliverConfigurationOverAmi(config, { ...target, secret: 'wrong' }, [extensions], []).catch((e: AmiError) => e);
    expect((login as AmiError).kind).toBe('login_failed');
  });
});
