import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { Forbidden, NotFound, TooManyRequests, Unauthorized } from '../../../platform/errors.js';
import type { AppContext } from '../../../platform/context.js';
import type { MailMessage } from '../../../platform/mail/mailer.js';
import { hashPassword, needsRehash, oneTimeCode, sha256, verifyPassword } from '../../../platform/crypto.js';
import { issueUserToken, revokeUserToken } from '../../../platform/auth/tokens.js';
import { refuseWhenExhausted, throttle } from '../../../platform/throttle.js';
import {
  consumeSecret,
  countFailedAttempt,
  findSecretByHash,
  findUserByEmail,
  findUserById,
  insertOneTimeSecret,
  latestOpenSecret,
  replacePasswordHash,
  retireOpenSecrets,
} from './auth.queries.js';

const INVALID_CREDENTIALS = 'These credentials do not match our records.';
const INVALID_CODE = 'The code is invalid or has expired.';
const DISABLED = 'This user account is disabled.';

type LoginUser = NonNullable<Awaited<ReturnType<typeof findUserByEmail>>>;

/** Where an e-mail that could not be sent is reported (the app's logger). */
export interface MailErrorLog {
  error(details: { err: unknown }, message: string): void;
}

/**
 * Login by password, magic link and one-time code; every path ends in a user token. Asking for a
 * link or a code answers the same, after the same work, whether or not the address has an
 * account: the e-mail leaves after the answer, so neither its delivery time nor its failure shows.
 */
export class AuthService {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly log: MailErrorLog,
  ) {}

  /** Guessing guard: attempts per e-mail and per client address in a fixed window. */
  private async guard(action: string, email: string, ip: string): Promise<void> {
    await throttle(this.ctx.counters, this.limits(action, email, ip));
  }

  private limits(action: string, email: string, ip: string) {
    const { loginAttemptsPerWindow: max, loginWindowSeconds: windowSeconds } = this.ctx.config;
    return [
      { key: `${action}:email:${email.toLowerCase()}`, max, windowSeconds },
      { key: `${action}:ip:${ip}`, max: max * 5, windowSeconds },
    ];
  }

  private async issue(user: LoginUser, via: string): Promise<string> {
    return issueUserToken(this.ctx.db, this.ctx.clock, user, { name: via, ttlSeconds: this.ctx.config.userTokenTtlSeconds });
  }

  /**
   * Only failed attempts count against the e-mail's and the address's limits, so someone who signs
   * in often is never locked out; once a limit is reached, every attempt is refused (429) until the
   * window ends, the right password included, so guessing gains nothing.
   */
  async login(email: string, password: string, ip: string): Promise<string> {
    const limits = this.limits('login', email, ip);
    await refuseWhenExhausted(this.ctx.counters, limits);
    const user = await findUserByEmail(this.ctx.db, email);
    const valid = await verifyPassword(password, user?.password_hash ?? null);
    if (!user || !valid) {
      await throttle(this.ctx.counters, limits).catch((error: unknown) => {
        // This failure reached the limit: it is still answered as the failure it is.
        if (!(error instanceof TooManyRequests)) throw error;
      });
      throw new Unauthorized(INVALID_CREDENTIALS);
    }
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    // The one moment the password is known: a hash of an older scheme (scrypt) becomes argon2id.
    if (user.password_hash && needsRehash(user.password_hash))
      await replacePasswordHash(this.ctx.db, user.id, user.password_hash, await hashPassword(password));
    return this.issue(user, 'login');
  }

  async logout(tokenId: string): Promise<void> {
    await revokeUserToken(this.ctx.db, this.ctx.clock, tokenId);
  }

  /** Sends a link when the address belongs to an active account; the answer never says whether it does. */
  async requestMagicLink(email: string, ip: string): Promise<void> {
    await this.guard('magic', email, ip);
    const user = await this.activeUserByEmail(email);
    const token = randomBytes(32).toString('base64url');
    await this.storeSecret(user, 'magic_link', sha256(token), this.ctx.config.magicLinkTtlSeconds);
    if (!user) return;
    const minutes = Math.round(this.ctx.config.magicLinkTtlSeconds / 60);
    this.deliver({
      to: user.email,
      subject: 'Your login link',
      text: `Hello ${user.first_name},\n\nOpen this link to log in (valid for ${minutes} minutes, once):\n${this.ctx.config.baseUrl}/magic-login/${token}\n\nIf you did not ask for it, ignore this message.\n`,
    });
  }

  async magicLogin(token: string, ip: string): Promise<string> {
    await throttle(this.ctx.counters, [
      { key: `magic-login:ip:${ip}`, max: this.ctx.config.loginAttemptsPerWindow * 5, windowSeconds: this.ctx.config.loginWindowSeconds },
    ]);
    const secret = await findSecretByHash(this.ctx.db, sha256(token), 'magic_link');
    if (!secret) throw new NotFound('This login link does not exist.');
    const now = this.ctx.clock.now().toISOString();
    if (secret.consumed_at || secret.expires_at <= now) throw new Unauthorized('This login link has expired or was already used.');
    if (!(await consumeSecret(this.ctx.db, secret.id, now))) throw new Unauthorized('This login link has expired or was already used.');
    const user = await this.activeUserById(secret.user_id);
    return this.issue(user, 'magic-link');
  }

  private codeHash(userId: string, code: string): string {
    return createHmac('sha256', this.ctx.config.secretKey).update(`${userId}:${code}`).digest('hex');
  }

  /**
   * Sends a one-time code to an active account; `expires_in` is its lifetime in seconds. An unknown
   * or disabled address gets the same answer and no code, and starts the same resend cooldown.
   */
  async passwordlessLogin(email: string, ip: string): Promise<number> {
    await this.guard('passwordless', email, ip);
    const user = await this.activeUserByEmail(email);
    await this.startCooldown(email);
    return this.sendCode(user);
  }

  /** A fresh code, refused with 429 and Retry-After inside the cooldown, which runs per address, account or not. */
  async passwordlessResend(email: string, ip: string): Promise<number> {
    await this.guard('passwordless', email, ip);
    const user = await this.activeUserByEmail(email);
    await this.checkCooldown(email);
    return this.sendCode(user);
  }

  private cooldownKey(email: string): string {
    return `passwordless-cooldown:${email.toLowerCase()}`;
  }

  /** A code was just asked for: the next resend waits the whole cooldown. */
  private async startCooldown(email: string): Promise<void> {
    const cooldown = this.ctx.config.passwordlessResendCooldownSeconds;
    if (cooldown <= 0) return;
    await this.ctx.counters.reset(this.cooldownKey(email));
    await this.ctx.counters.hit(this.cooldownKey(email), cooldown);
  }

  /** 429 while the address's cooldown runs; otherwise this resend starts the next one. */
  private async checkCooldown(email: string): Promise<void> {
    const cooldown = this.ctx.config.passwordlessResendCooldownSeconds;
    if (cooldown <= 0) return;
    const { count, resetInSeconds } = await this.ctx.counters.hit(this.cooldownKey(email), cooldown);
    if (count > 1) throw new TooManyRequests(resetInSeconds, `Please wait ${resetInSeconds} seconds before asking for a new code.`);
  }

  private async sendCode(user: LoginUser | null): Promise<number> {
    const code = oneTimeCode(6);
    const ttl = this.ctx.config.passwordlessCodeTtlSeconds;
    await this.storeSecret(user, 'passwordless', this.codeHash(user?.id ?? randomUUID(), code), ttl);
    if (user) {
      this.deliver({
        to: user.email,
        subject: `Your login code: ${code}`,
        text: `Hello ${user.first_name},\n\nYour one-time login code is ${code}. It expires in ${Math.round(ttl / 60)} minutes and works once.\n`,
      });
    }
    return ttl;
  }

  /**
   * The new secret replaces the account's open ones. Without an account the same retiring statement
   * runs for an id no row has, so the answer costs about as much either way.
   */
  private async storeSecret(user: LoginUser | null, purpose: 'magic_link' | 'passwordless', secretHash: string, ttlSeconds: number): Promise<void> {
    const now = this.ctx.clock.now();
    await retireOpenSecrets(this.ctx.db, user?.id ?? randomUUID(), purpose, now.toISOString());
    if (!user) return;
    await insertOneTimeSecret(this.ctx.db, {
      user_id: user.id,
      purpose,
      secret_hash: secretHash,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      created_at: now.toISOString(),
    });
  }

  /** Sends after the answer has left; a failure is logged (never the message, which holds the secret). */
  private deliver(message: MailMessage): void {
    const sending: Promise<void> = this.ctx.mailer
      .send(message)
      .catch((error: unknown) => this.log.error({ err: error }, 'a login e-mail could not be sent'))
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  /** Waits for the e-mails still on their way (the app closing). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }

  /** A code is checked before the account's state, so a disabled account shows only to the holder of its code. */
  async passwordlessVerify(email: string, code: string, ip: string): Promise<string> {
    await this.guard('passwordless-verify', email, ip);
    const user = await findUserByEmail(this.ctx.db, email);
    const secret = await latestOpenSecret(this.ctx.db, user?.id ?? randomUUID(), 'passwordless');
    const now = this.ctx.clock.now().toISOString();
    if (!user || !secret || secret.expires_at <= now || secret.attempts >= this.ctx.config.passwordlessMaxAttempts) throw new Unauthorized(INVALID_CODE);
    if (secret.secret_hash !== this.codeHash(user.id, code)) {
      await countFailedAttempt(this.ctx.db, secret.id);
      throw new Unauthorized(INVALID_CODE);
    }
    if (!(await consumeSecret(this.ctx.db, secret.id, now))) throw new Unauthorized(INVALID_CODE);
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    return this.issue(user, 'passwordless');
  }

  private async activeUserByEmail(email: string): Promise<LoginUser | null> {
    const user = await findUserByEmail(this.ctx.db, email);
    return user?.status === 'active' ? user : null;
  }

  private async activeUserById(userId: string): Promise<LoginUser> {
    const user = await findUserById(this.ctx.db, userId);
    if (!user) throw new Unauthorized('This login link has expired or was already used.');
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    return user;
  }
}
