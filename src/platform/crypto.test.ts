import { describe, expect, it } from 'vitest';
import { SecretBox, generateToken, hashPassword, tokenKind, verifyPassword } from './crypto.js';

describe('tokens', () => {
  it('carry their kind in the prefix and a checksum that catches typos', () => {
    for (const kind of ['user', 'pbx', 'integration', 'internal', 'pbx_server'] as const) {
      const token = generateToken(kind);
      expect(token).toHaveLength(41);
      expect(tokenKind(token)).toBe(kind);
      const typo = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
      expect(tokenKind(typo)).toBeNull();
    }
    expect(tokenKind('pbxu_short')).toBeNull();
    expect(generateToken('user')).not.toBe(generateToken('user'));
  });
});

describe('passwords', () => {
  it('verify only the right password and never a missing hash', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
  });
});

describe('SecretBox', () => {
  it('seals with a random nonce and opens only with the same key', () => {
    const box = new SecretBox('a'.repeat(64));
    const sealed = box.seal('sip-secret');
    expect(sealed).not.toContain('sip-secret');
    expect(box.seal('sip-secret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('sip-secret');
    expect(() => new SecretBox('b'.repeat(64)).open(sealed)).toThrow();
  });
});
