import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../platform/context.js';
import { userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { AuthService } from './auth.service.js';
import { CodeSentResponse, EmailBody, LoginBody, MagicLoginParams, MessageResponse, TokenResponse, VerifyBody } from './auth.schemas.js';

const tags = ['Login and identity'];
/** Public, and the same answer whether or not the address has an account (asking for a link or a code). */
const PUBLIC = { auth: { public: true } } as const;
/** Public, and answering 401 for credentials that do not hold and 403 for a disabled account (past its credentials). */
const SIGN_IN = { auth: { public: true }, answers: [401, 403] } as const;
/** A sign-in that answers with a user token: never cached. */
const TOKEN_SIGN_IN = { ...SIGN_IN, carriesSecret: true } as const;

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AuthService(ctx, app.log);
  // The login e-mails leave after their answers: closing waits for those still on their way.
  app.addHook('onClose', () => service.settle());
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/login', {
    config: TOKEN_SIGN_IN,
    schema: {
      tags,
      operationId: 'login',
      summary: 'Log in with e-mail and password',
      description:
        'Public. Answers `{message, data: {token}}` with a new user token (bearerAuth). 401 for an unknown address or a wrong password, 403 for a disabled account (checked only once the password holds). ' +
        'Failed attempts are counted per e-mail (10 per 15 minutes by default) and per client address (five times that); once a limit is reached every attempt, the right password included, is 429 until the window ends.',
      body: LoginBody,
      response: { 200: TokenResponse },
    },
    handler: async (request) => ({ message: 'Login successful.', data: { token: await service.login(request.body.email, request.body.password, request.ip) } }),
  });

  r.post('/logout', {
    config: { auth: { user: true } },
    schema: {
      tags,
      operationId: 'logout',
      summary: 'Revoke the token used for this request',
      description:
        'User tokens only (an API key is refused). Revokes exactly the token that made the request; the user’s other tokens keep working. Answers `{message}`; the token is 401 from then on.',
      response: { 200: MessageResponse },
    },
    handler: async (request) => {
      await service.logout(userPrincipalOf(request).tokenId);
      return { message: 'Logged out.' };
    },
  });

  r.post('/magic-link', {
    config: PUBLIC,
    schema: {
      tags,
      operationId: 'requestMagicLink',
      summary: 'E-mail a single-use login link',
      description: 'Public (no token). Always answers 200, whether or not the address has an account, so addresses cannot be probed.',
      body: EmailBody,
      response: { 200: MessageResponse },
    },
    handler: async (request) => {
      await service.requestMagicLink(request.body.email, request.ip);
      return { message: 'If this address has an account, a login link is on its way.' };
    },
  });

  r.get('/magic-login/:token', {
    config: TOKEN_SIGN_IN,
    schema: {
      tags,
      operationId: 'magicLogin',
      summary: 'Exchange a magic-link token for a user token',
      description: '404 for an unknown link, 401 for one that expired or was already used.',
      params: MagicLoginParams,
      response: { 200: TokenResponse },
    },
    handler: async (request) => ({ message: 'Login successful.', data: { token: await service.magicLogin(request.params.token, request.ip) } }),
  });

  r.post('/passwordless/login', {
    config: PUBLIC,
    schema: {
      tags,
      operationId: 'passwordlessLogin',
      summary: 'E-mail a one-time login code',
      description:
        'Public (no token). Always answers 200 with the code\u2019s lifetime, whether the address has an active account, a disabled one (no code is sent) or none, so addresses cannot be probed.',
      body: EmailBody,
      response: { 200: CodeSentResponse },
    },
    handler: async (request) => ({ success: true, expires_in: await service.passwordlessLogin(request.body.email, request.ip) }),
  });

  r.post('/passwordless/verify', {
    config: TOKEN_SIGN_IN,
    schema: {
      tags,
      operationId: 'passwordlessVerify',
      summary: 'Exchange a one-time code for a user token',
      description: '401 for a wrong, expired or used code, and for an address without a code; 403 only with a valid code of an account disabled since.',
      body: VerifyBody,
      response: { 200: TokenResponse },
    },
    handler: async (request) => ({
      message: 'Login successful.',
      data: { token: await service.passwordlessVerify(request.body.email, request.body.code, request.ip) },
    }),
  });

  r.post('/passwordless/resend', {
    config: PUBLIC,
    schema: {
      tags,
      operationId: 'passwordlessResend',
      summary: 'Send a new one-time code (after the cooldown)',
      description:
        'Within the cooldown after a code was asked for the answer is 429 with Retry-After; otherwise 200, as for POST /passwordless/login, whether or not the address has an account. The new code replaces the previous one.',
      body: EmailBody,
      response: { 200: CodeSentResponse },
    },
    handler: async (request) => ({ success: true, expires_in: await service.passwordlessResend(request.body.email, request.ip) }),
  });
}
