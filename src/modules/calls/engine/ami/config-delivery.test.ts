import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AmiError } from './client.js';
import { deliverConfigurationOverAmi, EMPTY_SOURCE, MAX_HEADERS, stagingName, updateConfigActions, type DeliveredFile } from './config-delivery.js';
import { AmiTestPeer, renderPeerConfig } from './test-peer.js';

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

describe('configuration delivery over AMI', () => {
  const peer = new AmiTestPeer();
  let target: { host: string; port: number; username: string; secret: string };

  beforeAll(async () => {
    target = { host: '127.0.0.1', port: await peer.start(), username: 'admin', secret: 's3cr3t-ami' };
  });
  afterAll(() => peer.stop());
  beforeEach(() => {
    peer.configFiles.clear();
    peer.reloads.length = 0;
    peer.received.length = 0;
    peer.configBehaviour = { createConfig: 'success', updateConfigRefuses: null, reloadRefuses: null, silentOn: null };
  });

  it('writes each file through a staging file and reloads the modules of the changed ones', async () => {
    const result = await deliverConfigurationOverAmi(config, target, [extensions, pjsip], ['extensions.conf']);
    expect(result.written).toEqual(['extensions.conf', 'pjsip.conf']);
    expect(result.reloaded).toEqual(['pbx_config.so']);
    expect(peer.reloads).toEqual(['pbx_config.so']);
    // Templates written out: Append cannot reach a template category on Asterisk.
    expect(renderPeerConfig(peer.configFiles.get('extensions.conf')!)).toBe(
      '[pbx-internal]\nTIMEOUT = 20\nexten => 100,1,Dial(PJSIP/alice,20)\nsame => n,Hangup()\n',
    );
    // Two sections of one name (an endpoint and its AOR) each keep their own lines.
    expect(renderPeerConfig(peer.configFiles.get('pjsip.conf')!)).toBe('[alice]\ntype = endpoint\naors = alice\n\n[alice]\ntype = aor\nmax_contacts = 1\n');
    const updates = peer.actions('UpdateConfig');
    expect(updates.map((m) => [m.get('SrcFilename'), m.get('DstFilename')])).toEqual([
      [EMPTY_SOURCE, stagingName('extensions.conf')],
      [stagingName('extensions.conf'), 'extensions.conf'],
      [EMPTY_SOURCE, stagingName('pjsip.conf')],
      [stagingName('pjsip.conf'), 'pjsip.conf'],
    ]);
    // The empty source, then each file's staging and live names (UpdateConfig refuses files that do not exist).
    expect(peer.actions('CreateConfig').map((m) => m.get('Filename'))).toEqual([
      EMPTY_SOURCE,
      stagingName('extensions.conf'),
      'extensions.conf',
      stagingName('pjsip.conf'),
      'pjsip.conf',
    ]);

    // They exist from now on: "File exists" is no failure, and the files keep their content until replaced.
    await deliverConfigurationOverAmi(config, target, [extensions], []);
    expect(peer.actions('CreateConfig')).toHaveLength(8);
    expect(peer.reloads).toEqual(['pbx_config.so']);
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
    const written = peer.configFiles.get('queues.conf')!;
    expect(written).toHaveLength(40);
    expect(written[39].lines.map((line) => line.value)).toEqual(['PJSIP/u39-0', 'PJSIP/u39-1', 'PJSIP/u39-2', 'PJSIP/u39-3', 'PJSIP/u39-4']);
    expect(peer.reloads).toEqual(['app_queue.so']);

    await deliverConfigurationOverAmi(config, target, [{ name: 'queues.conf', sections: [] }], ['queues.conf']);
    expect(peer.configFiles.get('queues.conf')).toEqual([]);
  });

  it('refuses what Asterisk could not read before anything is sent', () => {
    const long = { name: 'extensions.conf', sections: [{ name: 'x', lines: [{ key: 'exten', value: 'a'.repeat(1100), object: true }] }] };
    expect(() => updateConfigActions(long)).toThrow(/more than Asterisk's manager reads/);
    expect(() => updateConfigActions({ name: '../etc/passwd', sections: [] })).toThrow(AmiError);
    expect(() => updateConfigActions({ name: 'a.conf', sections: [{ name: 'x', lines: [{ key: 'k', value: 'v\nexten => evil' }] }] })).toThrow(/line break/);
  });

  it('fails on each refused action with the PBX answer, as a rejection', async () => {
    const failing = async () => {
      const error = await deliverConfigurationOverAmi(config, target, [extensions, pjsip], ['extensions.conf', 'pjsip.conf']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AmiError);
      return error as AmiError;
    };
    peer.configBehaviour.createConfig = 'error';
    let error = await failing();
    expect(error.kind).toBe('rejected');
    expect(error.message).toBe(`Creating ${EMPTY_SOURCE}: the PBX answered Permission denied.`);
    expect(peer.actions('UpdateConfig')).toHaveLength(0);

    peer.configBehaviour.createConfig = 'success';
    peer.configBehaviour.updateConfigRefuses = 'pjsip.conf';
    error = await failing();
    expect(error.message).toBe('Writing pjsip.conf: the PBX answered Given category does not exist.');
    // The live file was never written (only created empty, as CreateConfig does), and nothing was reloaded.
    expect(peer.configFiles.get('pjsip.conf')).toEqual([]);
    expect(peer.reloads).toEqual([]);

    peer.configBehaviour.updateConfigRefuses = null;
    peer.configBehaviour.reloadRefuses = 'res_pjsip.so';
    error = await failing();
    expect(error.message).toBe('Reloading res_pjsip.so: the PBX answered Module does not support reload.');
    expect(peer.reloads).toEqual(['pbx_config.so']);

    peer.configBehaviour.reloadRefuses = null;
    peer.modules.delete('res_musiconhold.so');
    const missing = await deliverConfigurationOverAmi(config, target, [{ name: 'musiconhold.conf', sections: [] }], ['musiconhold.conf']).catch(
      (e: AmiError) => e,
    );
    expect((missing as AmiError).message).toBe('Reloading res_musiconhold.so: the PBX answered No such module.');
    peer.modules.add('res_musiconhold.so');
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
