import { createHmac, randomBytes } from 'node:crypto';
import { Forbidden, NotFound, TooManyRequests, Unauthorized } from '../../../platform/errors.js';
import type { AppContext } from '../../../platform/context.js';
import { oneTimeCode, sha256, verifyPassword } from '../../../platform/crypto.js';
import { issueUserToken, revokeUserToken } from '../../../platform/auth/tokens.js';
import { throttle } from '../../../platform/throttle.js';
import {
  consumeSecret,
  countFailedAttempt,
  findSecretByHash,
  findUserByEmail,
  findUserById,
  insertOneTimeSecret,
  latestOpenSecret,
  latestSecret,
  retireOpenSecrets,
} from './auth.queries.js';

const INVALID_CREDENTIALS = 'These credentials do not match our records.';
const DISABLED = 'This user account is disabled.';

type LoginUser = NonNullable<Awaited<ReturnType<typeof findUserByEmail>>>;

/** Login by password, magic link and one-time code; every path ends in a user token. */
export class AuthService {
  constructor(private readonly ctx: AppContext) {}

  /** Guessing guard: attempts per e-mail and per client address in a sliding window. */
  private async guard(action: string, email: string, ip: string): Promise<void> {
    const { loginAttemptsPerWindow: max, loginWindowSeconds: windowSeconds } = this.ctx.config;
    await throttle(this.ctx.counters, [
      { key: `${action}:email:${email.toLowerCase()}`, max, windowSeconds },
      { key: `${action}:ip:${ip}`, max: max * 5, windowSeconds },
    ]);
  }

  private async issue(user: LoginUser, via: string): Promise<string> {
    return issueUserToken(this.ctx.db, this.ctx.clock, user, { name: via, ttlSeconds: this.ctx.config.userTokenTtlSeconds });
  }

  async login(email: string, password: string, ip: string): Promise<string> {
    await this.guard('login', email, ip);
    const user = await findUserByEmail(this.ctx.db, email);
    const valid = await verifyPassword(password, user?.password_hash ?? null);
    if (!user || !valid) throw new Unauthorized(INVALID_CREDENTIALS);
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    return this.issue(user, 'login');
  }

  async logout(tokenId: string): Promise<void> {
    await revokeUserToken(this.ctx.db, this.ctx.clock, tokenId);
  }

  /** Sends a link when the address belongs to an active account; the answer never says whether it does. */
  async requestMagicLink(email: string, ip: string): Promise<void> {
    await this.guard('magic', email, ip);
    const user = await findUserByEmail(this.ctx.db, email);
    if (!user || user.status !== 'active') return;
    const token = randomBytes(32).toString('base64url');
    const now = this.ctx.clock.now();
    await retireOpenSecrets(this.ctx.db, user.id, 'magic_link', now.toISOString());
    await insertOneTimeSecret(this.ctx.db, {
      user_id: user.id,
      purpose: 'magic_link',
      secret_hash: sha256(token),
      expires_at: new Date(now.getTime() + this.ctx.config.magicLinkTtlSeconds * 1000).toISOString(),
      created_at: now.toISOString(),
    });
    const minutes = Math.round(this.ctx.config.magicLinkTtlSeconds / 60);
    await this.ctx.mailer.send({
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

  /** Sends a one-time code; `expires_in` is its lifetime in seconds. */
  async passwordlessLogin(email: string, ip: string): Promise<number> {
    await this.guard('passwordless', email, ip);
    const user = await findUserByEmail(this.ctx.db, email);
    if (!user) throw new Unauthorized(INVALID_CREDENTIALS);
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    return this.sendCode(user);
  }

  /** A fresh code, refused with 429 and Retry-After inside the cooldown. */
  async passwordlessResend(email: string, ip: string): Promise<number> {
    await this.guard('passwordless', email, ip);
    const user = await findUserByEmail(this.ctx.db, email);
    if (!user) throw new Unauthorized(INVALID_CREDENTIALS);
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    const last = await latestSecret(this.ctx.db, user.id, 'passwordless');
    if (last) {
      const waited = (this.ctx.clock.now().getTime() - new Date(last.created_at).getTime()) / 1000;
      const cooldown = this.ctx.config.passwordlessResendCooldownSeconds;
      if (waited < cooldown) throw new TooManyRequests(cooldown - waited, `Please wait ${Math.ceil(cooldown - waited)} seconds before asking for a new code.`);
    }
    return this.sendCode(user);
  }

  private async sendCode(user: LoginUser): Promise<number> {
    const code = oneTimeCode(6);
    const ttl = this.ctx.config.passwordlessCodeTtlSeconds;
    const now = this.ctx.clock.now();
    await retireOpenSecrets(this.ctx.db, user.id, 'passwordless', now.toISOString());
    await insertOneTimeSecret(this.ctx.db, {
      user_id: user.id,
      purpose: 'passwordless',
      secret_hash: this.codeHash(user.id, code),
      expires_at: new Date(now.getTime() + ttl * 1000).toISOString(),
      created_at: now.toISOString(),
    });
    await this.ctx.mailer.send({
      to: user.email,
      subject: `Your login code: ${code}`,
      text: `Hello ${user.first_name},\n\nYour one-time login code is ${code}. It expires in ${Math.round(ttl / 60)} minutes and works once.\n`,
    });
    return ttl;
  }

  async passwordlessVerify(email: string, code: string, ip: string): Promise<string> {
    await this.guard('passwordless-verify', email, ip);
    const user = await findUserByEmail(this.ctx.db, email);
    if (!user) throw new Unauthorized('The code is invalid or has expired.');
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    const secret = await latestOpenSecret(this.ctx.db, user.id, 'passwordless');
    const now = this.ctx.clock.now().toISOString();
    if (!secret || secret.expires_at <= now || secret.attempts >= this.ctx.config.passwordlessMaxAttempts) {
      throw new Unauthorized('The code is invalid or has expired.');
    }
    if (secret.secret_hash !== this.codeHash(user.id, code)) {
      await countFailedAttempt(this.ctx.db, secret.id);
      throw new Unauthorized('The code is invalid or has expired.');
    }
    if (!(await consumeSecret(this.ctx.db, secret.id, now))) throw new Unauthorized('The code is invalid or has expired.');
    return this.issue(user, 'passwordless');
  }

  private async activeUserById(userId: string): Promise<LoginUser> {
    const user = await findUserById(this.ctx.db, userId);
    if (!user) throw new Unauthorized('This login link has expired or was already used.');
    if (user.status !== 'active') throw new Forbidden(DISABLED);
    return user;
  }
}
