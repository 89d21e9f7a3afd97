import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { operationRoutes } from '../../../http/resource-routes.js';
import { AUTH_DOCS } from './auth.docs.js';
import { AuthService } from './auth.service.js';
import { CodeSentResponse, EmailBody, LoginBody, MagicLoginParams, MessageResponse, TokenResponse, VerifyBody } from './auth.schemas.js';

/** Public, and the same answer whether or not the address has an account (asking for a link or a code). */
const PUBLIC = { public: true } as const;
/** Public sign-ins answer 401 for credentials that do not hold and 403 for a disabled account (past its credentials); their user token is never cached. */
const TOKEN_SIGN_IN = { answers: [401, 403], carriesSecret: true } as const;

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AuthService(ctx, app.log);
  // The login e-mails leave after their answers: closing waits for those still on their way.
  app.addHook('onClose', () => service.settle());
  const { route } = operationRoutes(app, { tags: ['Login and identity'], docs: AUTH_DOCS });
  const signedIn = (token: string) => ({ message: 'Login successful.', data: { token } });

  route('/login', {
    method: 'POST',
    auth: PUBLIC,
    config: TOKEN_SIGN_IN,
    operationId: 'login',
    body: LoginBody,
    response: { 200: TokenResponse },
    handle: async ({ body, request }) => signedIn(await service.login(body.email, body.password, request.ip)),
  });

  route('/logout', {
    method: 'POST',
    auth: { user: true },
    operationId: 'logout',
    response: { 200: MessageResponse },
    handle: async ({ user }) => {
      await service.logout(user.tokenId);
      return { message: 'Logged out.' };
    },
  });

  route('/magic-link', {
    method: 'POST',
    auth: PUBLIC,
    operationId: 'requestMagicLink',
    body: EmailBody,
    response: { 200: MessageResponse },
    handle: async ({ body, request }) => {
      await service.requestMagicLink(body.email, request.ip);
      return { message: 'If this address has an account, a login link is on its way.' };
    },
  });

  route('/magic-login/:token', {
    method: 'GET',
    auth: PUBLIC,
    config: TOKEN_SIGN_IN,
    operationId: 'magicLogin',
    params: MagicLoginParams,
    response: { 200: TokenResponse },
    handle: async ({ params, request }) => signedIn(await service.magicLogin(params.token, request.ip)),
  });

  route('/passwordless/login', {
    method: 'POST',
    auth: PUBLIC,
    operationId: 'passwordlessLogin',
    body: EmailBody,
    response: { 200: CodeSentResponse },
    handle: async ({ body, request }) => ({ success: true, expires_in: await service.passwordlessLogin(body.email, request.ip) }),
  });

  route('/passwordless/verify', {
    method: 'POST',
    auth: PUBLIC,
    config: TOKEN_SIGN_IN,
    operationId: 'passwordlessVerify',
    body: VerifyBody,
    response: { 200: TokenResponse },
    handle: async ({ body, request }) => signedIn(await service.passwordlessVerify(body.email, body.code, request.ip)),
  });

  route('/passwordless/resend', {
    method: 'POST',
    auth: PUBLIC,
    operationId: 'passwordlessResend',
    body: EmailBody,
    response: { 200: CodeSentResponse },
    handle: async ({ body, request }) => ({ success: true, expires_in: await service.passwordlessResend(body.email, request.ip) }),
  });
}
