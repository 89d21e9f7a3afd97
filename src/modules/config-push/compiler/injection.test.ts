import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../../platform/crypto.js';
import { expectGolden, expectWellFormed } from '../../../../test/config-golden.js';
import { compileConfiguration, deliverableContent, type ConfigurationSnapshot } from './index.js';

const box = new SecretBox('0'.repeat(64));
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** What every free-text field tries: a new line with a section, a dialplan line and a directive, a `;--` block comment, dialplan syntax. */
const EVIL = 'Evil\n[evil](!)\nexten => 666,1,System(touch /tmp/pwned)\r\n#exec /bin/sh ;-- ${SHELL(id)} $[1+1] ,x) | "q" \\';

/** A fixed sealed value: the SecretBox uses a random IV, so the golden file needs a stable one. */
const sealed = (n: number) => `v1.fixed-iv-${n}.tag.body`;
const SECRETS: Record<string, string> = {
  [sealed(1)]: 'pa;ss--;word with "quotes" and ${VAR}',
  [sealed(2)]: 'webrtc-password',
  [sealed(3)]: '1234',
};

function trickySnapshot(): ConfigurationSnapshot {
  const user = id(2);
  return {
    pbx: { id: id(1), name: EVIL, countryCode: 'LU', timezone: 'Europe/Luxembourg,1?x', halfDaySplit: '12:00\n' },
    users: [
      {
        id: user,
        firstName: EVIL,
        lastName: "O'Brien;--",
        email: 'a,b|attach=no@evil.example',
        language: 'en\nx',
        active: true,
        voicemailDestination: 'email_only',
      },
    ],
    extensions: [
      { id: id(3), number: '201', name: EVIL, userId: user, voicemailEnabled: true },
      { id: id(4), number: '202,1,System(id)', name: EVIL, userId: null, voicemailEnabled: true },
      { id: id(5), number: '203\n[x]', name: EVIL, userId: null, voicemailEnabled: false },
    ],
    sipDevices: [
      {
        id: id(6),
        name: EVIL,
        username: 'desk01',
        secretSealed: sealed(1),
        transport: 'udp\n[x]',
        codecs: ['opus', 'evil\n[x]', 'pcma'],
        userId: user,
        extensionId: id(3),
        roamingExtensionId: null,
        roamingUserId: null,
      },
      {
        id: id(7),
        name: 'bad user name',
        username: 'bad]\n[name',
        secretSealed: sealed(1),
        transport: 'udp',
        codecs: ['opus'],
        userId: user,
        extensionId: id(3),
        roamingExtensionId: null,
        roamingUserId: null,
      },
    ],
    webrtcAccounts: [{ userId: user, username: 'webrtc_evil', passwordSealed: sealed(2), voicemailPinSealed: sealed(3) }],
    twinnings: [
      {
        id: id(8),
        userId: user,
        type: 'mobile',
        phoneNumber: '+352691123456,1,System(id)',
        backupPhoneNumber: '+352621123456',
        delay: 5,
        dialStrategy: 'voip_and_gsm_fallback',
        fmcEnabled: true,
      },
    ],
    forwards: [
      { id: id(9), userId: user, type: 'busy', destinationType: 'number', destination: '+352 26)\n[x]', delay: 0 },
      { id: id(10), userId: user, type: 'no_answer', destinationType: 'extension', destination: '202;--', delay: 20 },
    ],
    dnds: [{ id: id(11), userId: user, type: 'external', callerIdentityId: id(13), extensionId: null }],
    phoneNumbers: [
      { id: id(12), number: '+35227123400', label: EVIL, destinationType: 'call_flow', destinationId: id(15) },
      { id: id(14), number: '+352 27 12\n[x]', label: EVIL, destinationType: 'user', destinationId: user },
    ],
    callerIdentities: [{ id: id(13), userId: null, phoneNumberId: id(12), name: EVIL, externalCallerNumber: '+35227123400', isDefault: true }],
    soundFiles: [
      { id: id(16), name: EVIL, type: 'announcement', language: 'en' },
      { id: id(17), name: EVIL, type: 'music', language: null },
    ],
    callFlows: [
      {
        id: id(15),
        name: EVIL,
        description: EVIL,
        entry: 'hours',
        nodes: [
          {
            key: 'hours',
            type: 'time_condition',
            label: EVIL,
            open_hours: [{ days: [1, 2, 3], from: '09:00', to: '24:00' }],
            public_holidays_country: 'LU',
            tenant_holidays: true,
            open: 'menu',
            closed: 'out',
            holiday: null,
          },
          { key: 'menu', type: 'ivr', label: EVIL, ivr_id: id(18) },
          { key: 'out', type: 'forward', label: EVIL, number: '+352 1;System(id)' },
        ],
      },
    ],
    ivrs: [
      {
        id: id(18),
        name: EVIL,
        comment: EVIL,
        announcementId: id(16),
        musicOnHoldId: id(17),
        language: 'de)\n[x]',
        defaultAction: 'repeat',
        timeoutSeconds: 5,
        maxRepeats: 2,
        steps: [
          { option: '1', name: EVIL, target: { type: 'call_flow', id: id(15) }, language: 'fr,System(id)' },
          { option: '1,1,System(id)', name: EVIL, target: { type: 'ivr', id: id(18) }, language: null },
        ],
      },
    ],
    queues: [
      {
        id: id(19),
        name: EVIL,
        strategy: 'round_robin',
        maxWaitSeconds: 60,
        maxCallers: null,
        memberTimeoutSeconds: 15,
        wrapUpSeconds: 0,
        musicOnHoldId: id(17),
        announcementId: id(16),
        overflow: { type: 'external', id: null, number: '+352\n[x]' },
        members: [{ type: 'user', id: user, penalty: 0 }],
      },
    ],
    holidays: {
      from: '2026-01-01',
      to: '2027-12-31',
      public: {
        LU: [
          { date: '2026-12-25', name: EVIL, halfDay: false },
          { date: '2026-12-24\n[x]', name: EVIL, halfDay: true },
        ],
      },
      tenant: [{ date: '2026-07-01', name: EVIL, halfDay: true }],
    },
  };
}

describe('configuration compiler: injection attempts in every free-text field', () => {
  const compiled = compileConfiguration(trickySnapshot());

  it('compiles them to the golden files, every line well formed', () => {
    for (const file of compiled.files) expectWellFormed(file.content);
    expectGolden('tricky', compiled.files);
  });

  it('lets no injected line, section, directive or block comment through', () => {
    for (const file of compiled.files) {
      const delivered = deliverableContent(file, (s) => SECRETS[s] ?? box.open(s));
      expectWellFormed(delivered);
      for (const line of delivered.split('\n')) {
        expect(line).not.toMatch(/^\s*\[evil\]|^\s*#|^\s*\[x\]/);
        // A comment holds no second `;` (no `;--`); elsewhere only a secret's escaped `\;`.
        expect(line.startsWith('; ') ? line.slice(2) : line.replace(/\\;/g, '')).not.toContain(';');
        if (line.startsWith(';')) continue; // comments may quote the text: they are inert
        expect(line).not.toMatch(/exten => 666|System\(|\$\{SHELL|\$\[1\+1\]/);
      }
    }
  });

  it('leaves out what cannot be written and keeps the rest', () => {
    const file = (name: string) => compiled.files.find((f) => f.name === name)!.content;
    expect(file('pjsip.conf')).toContain('[desk01](t00000000000040008000000000000001-endpoint)');
    expect(file('pjsip.conf')).not.toContain('bad');
    expect(file('pjsip.conf')).toContain('transport = transport-udp');
    expect(file('pjsip.conf')).toContain('allow = opus,alaw');
    expect(file('extensions.conf')).toContain('exten => 201,1,');
    expect(file('extensions.conf')).toContain('; Extension 202,1,System(id) is not a dialable number: left out.');
    expect(file('extensions.conf')).not.toMatch(/^exten => 202/m);
    expect(file('voicemail.conf')).toMatch(/^201 => pbxapi-sealed-[0-9a-f]{24},Evil evil exten 666 1 System touch \/tmp\/pwned/m);
    // The password is the one sealed secret that keeps its `;`, escaped.
    const pjsip = compiled.files.find((f) => f.name === 'pjsip.conf')!;
    expect(deliverableContent(pjsip, (s) => SECRETS[s])).toContain('password = pa\\;ss--\\;word with "quotes" and ${VAR}');
  });

  it('refuses to deliver a secret that cannot be written on one line', () => {
    const pjsip = compiled.files.find((f) => f.name === 'pjsip.conf')!;
    expect(() => deliverableContent(pjsip, () => 'two\nlines')).toThrow(/cannot be written safely/);
    const voicemail = compiled.files.find((f) => f.name === 'voicemail.conf')!;
    expect(() => deliverableContent(voicemail, () => '12,34')).toThrow(/cannot be written safely/);
  });
});
