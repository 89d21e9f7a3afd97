import { describe, expect, it } from 'vitest';
import {
  clockTime,
  commentText,
  compactId,
  displayName,
  e164,
  emailAddress,
  extensionNumber,
  identifier,
  isoDate,
  language,
  nodeLabel,
  pin,
  secretValue,
  tenantPrefix,
  timeZone,
} from './escape.js';

describe('configuration escaping', () => {
  it('keeps comments on one line, without a `;` that could open a block comment', () => {
    expect(commentText('Sales\n[evil]\r\nexten => 1,1,System(rm)')).toBe('Sales [evil] exten => 1,1,System(rm)');
    expect(commentText('a ;-- b --; c')).toBe('a ,-- b --, c');
    expect(commentText('line\u2028separator\u0000nul')).toBe('line separator nul');
    expect(commentText(null)).toBe('');
    expect(commentText('x'.repeat(500)).length).toBe(120);
  });

  it('strips from display names everything the parser, the argument splitter or substitution reads', () => {
    expect(displayName('Anna "Boss" Schmit')).toBe('Anna Boss Schmit');
    expect(displayName('x,1,System(rm -rf /);${SHELL(id)}$[1+1]|<y>')).toBe('x 1 System rm -rf / SHELL id 1+1 y');
    expect(displayName("Ünïcødé Ørsted-Łukasz O'Brien")).toBe("Ünïcødé Ørsted-Łukasz O'Brien");
    expect(displayName('a\nb\\c?d:e')).toBe('a b c d e');
    expect(displayName('   ')).toBe('');
  });

  it('accepts numbers only of their exact form', () => {
    expect(extensionNumber('201')).toBe('201');
    for (const bad of ['20a', '201,1,Hangup()', '', ' 201', '2'.repeat(17), '+201', null]) expect(extensionNumber(bad)).toBeNull();
    expect(e164('+35227123400')).toBe('+35227123400');
    for (const bad of ['35227123400', '+352 27', '+35227123400\n', '+0123456789', '+1234567890123456', '+3522712340a']) expect(e164(bad)).toBeNull();
    expect(pin('0420')).toBe('0420');
    for (const bad of ['042', '04a0', '1234,5', '1'.repeat(13)]) expect(pin(bad)).toBeNull();
  });

  it('builds names from ids and identifiers only', () => {
    expect(identifier('sip0a1b2c.d-e_f')).toBe('sip0a1b2c.d-e_f');
    for (const bad of ['a b', 'a]b', 'a;b', '-lead', '', 'x'.repeat(65), 'a\nb']) expect(identifier(bad)).toBeNull();
    expect(compactId('6F9619FF-8B86-D011-B42D-00C04FC964FF')).toBe('6f9619ff8b86d011b42d00c04fc964ff');
    expect(compactId('not-a-uuid')).toBeNull();
    expect(tenantPrefix('6f9619ff-8b86-d011-b42d-00c04fc964ff')).toBe('t6f9619ff8b86d011b42d00c04fc964ff');
    expect(nodeLabel('closed-message')).toBe('node_closed-message');
    expect(nodeLabel('a,b')).toBeNull();
  });

  it('writes a secret as it is, `;` escaped, and refuses what the parser would change', () => {
    expect(secretValue('pa;ss--;word')).toBe('pa\\;ss--\\;word');
    expect(secretValue('"quotes" and $ signs')).toBe('"quotes" and $ signs');
    for (const bad of ['line\nbreak', ' leading', 'trailing ', '\\start', '', 'tab\there']) expect(secretValue(bad)).toBeNull();
  });

  it('checks the remaining value kinds', () => {
    expect(emailAddress('anna.schmit@acme.example')).toBe('anna.schmit@acme.example');
    for (const bad of ['a,b@c.de', 'a|attach=no@c.de', 'x@y', 'a@b.de\n']) expect(emailAddress(bad)).toBeNull();
    expect(timeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    for (const bad of ['Europe/Lux,1', 'Europe/../x', 'a b']) expect(timeZone(bad)).toBeNull();
    expect(language('pt_BR')).toBe('pt_BR');
    expect(language('de)')).toBeNull();
    expect(isoDate('2026-12-24')).toBe('2026-12-24');
    expect(isoDate('2026-13-01')).toBeNull();
    expect(clockTime('24:00')).toBe('24:00');
    expect(clockTime('24:01')).toBeNull();
  });
});
