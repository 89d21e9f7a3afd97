import * as nodeCrypto from 'node:crypto';
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { promisify } from 'node:util';
import { Algorithm, hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function toBase62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

/** CRC32 of the token body in six base62 characters (checked on every request, so no BigInt). */
function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** Token prefixes: recognisable by secret scanners, and they tell which principal a token is. */
export const TOKEN_PREFIXES = {
  user: 'pbxu',
  pbx: 'pbxk',
  integration: 'pbxi',
  internal: 'pbxn',
  pbx_server: 'pbxs',
} as const;
export type TokenKind = keyof typeof TOKEN_PREFIXES;

/** `<prefix>_<30 base62 chars of 178 random bits><6 char CRC32 checksum>`, like GitHub's tokens. */
export function generateToken(kind: TokenKind): string {
  const body = `${TOKEN_PREFIXES[kind]}_${toBase62(randomBytes(24)).padStart(33, '0').slice(0, 30)}`;
  return body + checksum(body);
}

const KIND_BY_PREFIX = new Map<string, TokenKind>(Object.entries(TOKEN_PREFIXES).map(([kind, prefix]) => [prefix, kind as TokenKind]));
const TOKEN_SHAPE = /^pbx[ukins]_[0-9A-Za-z]{36}$/;
const TOKEN_LENGTH = 41;
const BODY_LENGTH = TOKEN_LENGTH - 6;

/** The kind a well-formed token claims, or null when its shape or checksum is wrong (runs on every request). */
export function tokenKind(token: string): TokenKind | null {
  if (token.length !== TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) return null;
  if (checksum(token.slice(0, BODY_LENGTH)) !== token.slice(BODY_LENGTH)) return null;
  return KIND_BY_PREFIX.get(token.slice(0, 4)) ?? null;
}

// One-shot crypto.hash (Node >= 20.12) skips building a Hash object; older 20.x builds one.
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** Tokens and one-time secrets are stored only as this digest. */
export const sha256: (value: string) => string = oneShotHash
  ? (value) => oneShotHash('sha256', value, 'hex')
  : (value) => createHash('sha256').update(value).digest('hex');

/** Shown in lists so a key can be recognised without being revealed. */
export function tokenHint(token: string): string {
  return `${token.slice(0, 9)}…${token.slice(-4)}`;
}

/**
 * Passwords are hashed with argon2id at OWASP's first recommended setting (19 MiB, 2 passes,
 * 1 lane). `@node-rs/argon2` ships prebuilt binaries in its npm packages, so installs need no
 * toolchain. Hashes made before (scrypt, `scrypt$N$r$p$salt$hash`) still verify, and a login
 * replaces them (see needsRehash).
 */
export const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export type Argon2Cost = { memoryCost: number; timeCost: number; parallelism: number };

/** `cost` is for test fixtures only, which make hundreds of users a run. */
export async function hashPassword(password: string, cost: Argon2Cost = ARGON2): Promise<string> {
  return argon2Hash(password, { algorithm: Algorithm.Argon2id, ...cost });
}

/** A fixed hash to verify against when the account does not exist, so timing does not reveal it. */
let dummyHash: Promise<string> | undefined;

const SCRYPT_LEGACY = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([^$]+)\$([^$]+)$/;

async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = SCRYPT_LEGACY.exec(stored) ?? [];
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) {
    await argon2Verify(await (dummyHash ??= hashPassword('no account has this password')), password).catch(() => false);
    return false;
  }
  if (stored.startsWith('scrypt$')) return verifyLegacyScrypt(password, stored);
  if (!stored.startsWith('$argon2')) return false;
  return argon2Verify(stored, password).catch(() => false);
}

/** A stored hash a successful login should replace: an older scheme, or argon2 below today's setting. */
export function needsRehash(stored: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!match) return true;
  return Number(match[1]) < ARGON2.memoryCost || Number(match[2]) < ARGON2.timeCost;
}

/** A numeric one-time code of the given length. */
export function oneTimeCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

/** Encrypts secrets that must be readable again (revealable API keys, SIP and WebRTC passwords). */
export class SecretBox {
  private readonly key: Buffer;
  constructor(secretKey: string) {
    const key = /^[0-9a-f]{64}$/i.test(secretKey) ? Buffer.from(secretKey, 'hex') : Buffer.from(secretKey, 'base64');
    this.key = key.length === 32 ? key : createHash('sha256').update(secretKey).digest();
  }
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${body.toString('base64')}`;
  }
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unrecognised sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
