import { describe, expect, it } from 'vitest';
import { scryptSync } from 'node:crypto';
import { SecretBox, generateToken, hashPassword, needsRehash, tokenKind, verifyPassword } from './crypto.js';

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
  it('hash with argon2id at the recommended setting and verify only the right password, never a missing hash', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(needsRehash(hash)).toBe(false);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'not a hash')).toBe(false);
  });

  it('still verify the scrypt hashes stored before, and ask for them (and weaker argon2) to be replaced', async () => {
    // Made by the former hashPassword: scrypt N=16384, r=8, p=1, 16-byte salt, 32-byte key.
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync('old password', salt, 32, { N: 16384, r: 8, p: 1 });
    const legacy = `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
    expect(await verifyPassword('old password', legacy)).toBe(true);
    expect(await verifyPassword('other', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash(await hashPassword('x', { memoryCost: 8, timeCost: 1, parallelism: 1 }))).toBe(true);
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
