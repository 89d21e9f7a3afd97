/**
 * The harness against the real Asterisk: an instance on docs/asterisk/ exactly as the README
 * tells an operator to write it, tenant files read through its `#tryinclude` globs, phones
 * registering over SIP (SIPp), and an instance started without queues.conf.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asteriskSuite, instanceHostFile, startAsterisk, type AsteriskInstance } from './harness.js';
import { answeringPhone, registerPhone } from './sipp.js';

/** Every character a password may hold that the config parser, the shell or SIPp could take for something else. */
const PASSWORD = 'Pa;ss #w\\rd "q" 9';
/** The same in a .conf file: the parser reads `\;` as `;` (everything else is literal). */
const PASSWORD_IN_FILE = PASSWORD.replace(/;/g, '\\;');

asteriskSuite('the real-Asterisk harness', () => {
  let asterisk: AsteriskInstance;
  beforeAll(async () => {
    asterisk = await startAsterisk({
      extraDialplan: '[harness-caller]\nexten => s,1,Answer()\nsame => n,Wait(30)\nsame => n,Hangup()\n',
      extraPjsip: '[harness-endpoint]\ntype = endpoint\ncontext = harness-caller\n',
    });
  });
  afterAll(() => asterisk?.stop());

  it('runs the host files of docs/asterisk/ on its own ports', async () => {
    expect(asterisk.amiUser).toBe('pbxapi');
    expect(asterisk.amiSecret).toBe('change-me-to-a-long-secret');
    expect(await asterisk.cli('manager show settings')).toMatch(new RegExp(`TCP Bindaddress:\\s+127\\.0\\.0\\.1:${asterisk.amiPort}`));
    const transports = await asterisk.cli('pjsip show transports');
    expect(transports).toMatch(new RegExp(`transport-udp\\s+udp\\s+\\d+\\s+\\d+\\s+127\\.0\\.0\\.1:${asterisk.sipPort}`));
    expect(transports).toMatch(new RegExp(`transport-tcp\\s+tcp\\s+\\d+\\s+\\d+\\s+127\\.0\\.0\\.1:${asterisk.sipTcpPort}`));
    const trunk = await asterisk.cli('pjsip show endpoint pbxapi-trunk');
    expect(trunk).toMatch(/Endpoint:\s+pbxapi-trunk/);
    expect(trunk).toMatch(/^ context\s+: pbxapi-from-carrier$/m);
    expect(await asterisk.cli('dialplan show pbxapi-from-carrier')).toContain("Context 'pbxapi-from-carrier' created by 'pbx_config'");
    expect(await asterisk.cli('dialplan show operator-test')).toMatch(/'600' =>\s+1\. Answer\(\)/);
    expect(await asterisk.cli('dialplan show harness-caller')).toMatch(/Wait\(30\)/);
    expect(await asterisk.cli('pjsip show endpoint harness-endpoint')).toMatch(/^ context\s+: harness-caller$/m);
    // The sounds follow the instance's data folder.
    expect(await asterisk.cli('core show settings')).toContain(`Data directory:              ${asterisk.dataDir}`);
    expect(await asterisk.cli('module show like app_queue')).toMatch(/app_queue\.so\s.*\sRunning\s/);
    // Not pushed aside by res_mwi_external (modules.conf leaves it out).
    expect(await asterisk.cli('module show like app_voicemail')).toMatch(/app_voicemail\.so\s.*\sRunning\s/);
    expect(asterisk.log()).not.toMatch(/app_voicemail declined|Voicemail provider already registered/);
    expect(asterisk.log()).toMatch(/Asterisk Ready\./);
  });

  it('reads a tenant pjsip file through the glob: a phone registers with the real password, not a wrong one', async () => {
    asterisk.writeEtcFile(
      'pbxapi-pjsip-ttest.conf',
      [
        '[phone1]',
        'type = auth',
        'auth_type = userpass',
        'username = phone1',
        `password = ${PASSWORD_IN_FILE}`,
        '',
        '[phone1]',
        'type = aor',
        'max_contacts = 1',
        'remove_existing = yes',
        '',
        '[phone1]',
        'type = endpoint',
        'context = ttest',
        'disallow = all',
        'allow = ulaw',
        'aors = phone1',
        'auth = phone1',
        '',
      ].join('\n'),
    );
    expect(await asterisk.cli('module reload res_pjsip.so')).toMatch(/reloaded successfully/);
    expect(await asterisk.cli('pjsip show auth phone1')).toContain(`password                 : ${PASSWORD}`);

    expect(await registerPhone({ asterisk, username: 'phone1', password: PASSWORD })).toBe(200);
    expect(await asterisk.cli('pjsip show contacts')).toMatch(/phone1\/sip:phone1@127\.0\.0\.1:\d+/);
    expect(await registerPhone({ asterisk, username: 'phone1', password: PASSWORD.replace('9', '8') })).toBe(401);
    expect(await registerPhone({ asterisk, username: 'nobody', password: PASSWORD })).toBe(401);
  });

  it('reads a tenant dialplan file through the glob', async () => {
    asterisk.writeEtcFile('pbxapi-extensions-ttest.conf', '[ttest]\nexten => 100,1,Answer()\nsame => n,Playback(hello-world)\nsame => n,Hangup()\n');
    expect(await asterisk.cli('dialplan reload')).toMatch(/Dialplan reloaded/);
    expect(await asterisk.cli('dialplan show ttest')).toMatch(/'100' =>\s+1\. Answer\(\)\s+\[pbxapi-extensions-ttest\.conf:\d+\]/);
  });

  it('reads tenant queue, voicemail and music files through their globs', async () => {
    asterisk.writeEtcFile('pbxapi-queues-ttest.conf', '[ttest-queue]\nstrategy = ringall\n');
    asterisk.writeEtcFile('pbxapi-voicemail-ttest.conf', '[ttest]\n100 => 1234,Phone One\n');
    // A class needs files: one of Debian's sounds, in a folder under the instance's data directory.
    mkdirSync(join(asterisk.dataDir, 'moh', 'ttest'), { recursive: true });
    copyFileSync(join(asterisk.dataDir, 'sounds', 'en', 'hello-world.gsm'), join(asterisk.dataDir, 'moh', 'ttest', 'hello-world.gsm'));
    asterisk.writeEtcFile('pbxapi-musiconhold-ttest.conf', '[ttest-moh]\nmode = files\ndirectory = moh/ttest\n');
    await asterisk.cli('module reload app_queue.so');
    await asterisk.cli('module reload app_voicemail.so');
    await asterisk.cli('module reload res_musiconhold.so');
    expect(await asterisk.cli('queue show ttest-queue')).toMatch(/^ttest-queue has 0 calls/m);
    expect(await asterisk.cli('voicemail show users for ttest')).toMatch(/ttest\s+100\s+Phone One/);
    expect(await asterisk.cli('moh show classes')).toMatch(/Class: ttest-moh/);
  });

  it('calls an answering phone, which hangs up or is hung up on', async () => {
    const phone = await answeringPhone({ asterisk, username: 'phone1', password: PASSWORD });
    try {
      const mark = asterisk.logMark();
      await asterisk.cli('channel originate PJSIP/phone1 extension s@harness-caller');
      const first = await phone.waitForCall();
      expect(phone.calls).toBe(1);
      await asterisk.waitForLog(/Executing \[s@harness-caller:2\] Wait\("PJSIP\/phone1-[0-9a-f]+", "30"\)/, 10_000, mark);
      await phone.hangup();
      expect(await phone.waitForEnd(first.callId)).toBe('by-phone');

      await asterisk.cli('channel originate Local/100@ttest application Dial PJSIP/phone1');
      const second = await phone.waitForCall();
      // Playback of hello-world (about 1 s) from the Debian sounds, then Asterisk hangs up.
      expect(await phone.waitForEnd(second.callId)).toBe('by-remote');
      await asterisk.waitForLog(/Playing 'hello-world\.gsm'/, 5_000, mark);
      expect(phone.calls).toBe(2);
    } finally {
      await phone.stop();
    }
  });

  it('refuses host files whose ports it cannot find, rather than test something else', () => {
    const ports = { ami: 1, sipUdp: 2, sipTcp: 3 };
    expect(() => instanceHostFile('pjsip.conf', '[transport-udp]\ntype = transport\n', ports)).toThrow(/\[transport-udp\] has 0 lines matching/);
    expect(() => instanceHostFile('manager.conf', '[pbxapi]\nsecret = x\n', ports)).toThrow(/no \[general\] section/);
    expect(instanceHostFile('pjsip.conf', '[transport-udp]\nbind = 0.0.0.0:5060\n[transport-tcp]\nbind = 0.0.0.0:5060\n', ports)).toBe(
      '[transport-udp]\nbind = 127.0.0.1:2\n[transport-tcp]\nbind = 127.0.0.1:3\n',
    );
  });

  it('starts a second instance at once, on other ports', async () => {
    const second = await startAsterisk({ without: ['queues.conf'] });
    try {
      expect(second.amiPort).not.toBe(asterisk.amiPort);
      expect(second.sipPort).not.toBe(asterisk.sipPort);
      // app_queue declines to load without queues.conf at start.
      const queue = await second.cli('module show like app_queue');
      expect(queue).toMatch(/app_queue\.so\s.*\sNot Running\s/);
      // A reload cannot bring it back (only `module load` can).
      expect(await second.cli('module reload app_queue.so')).toMatch(/was not properly initialized/);
      expect(await second.cli('module show like app_queue')).toMatch(/Not Running/);
      second.writeEtcFile('queues.conf', '[general]\n');
      expect(await second.cli('module load app_queue.so')).toMatch(/Loaded app_queue\.so/);
      expect(await second.cli('module show like app_queue')).toMatch(/app_queue\.so\s.*\sRunning\s/);
    } finally {
      await second.stop();
    }
  });
});
