import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of auth.routes.ts, by operation id. */
export const AUTH_DOCS = {
  login: {
    summary: 'Log in with e-mail and password',
    description:
      'Public. Answers `{message, data: {token}}` with a new user token (bearerAuth). 401 for an unknown address or a wrong password, 403 for a disabled account (checked only once the password holds). ' +
      'Failed attempts are counted per e-mail (10 per 15 minutes by default) and per client address (five times that); once a limit is reached every attempt, the right password included, is 429 until the window ends.',
  },
  logout: {
    summary: 'Revoke the token used for this request',
    description:
      'User tokens only (an API key is refused). Revokes exactly the token that made the request; the user’s other tokens keep working. Answers `{message}`; the token is 401 from then on.',
  },
  requestMagicLink: {
    summary: 'E-mail a single-use login link',
    description: 'Public (no token). Always answers 200, whether or not the address has an account, so addresses cannot be probed.',
  },
  magicLogin: {
    summary: 'Exchange a magic-link token for a user token',
    description: '404 for an unknown link, 401 for one that expired or was already used.',
  },
  passwordlessLogin: {
    summary: 'E-mail a one-time login code',
    description:
      'Public (no token). Always answers 200 with the code\u2019s lifetime, whether the address has an active account, a disabled one (no code is sent) or none, so addresses cannot be probed.',
  },
  passwordlessVerify: {
    summary: 'Exchange a one-time code for a user token',
    description: '401 for a wrong, expired or used code, and for an address without a code; 403 only with a valid code of an account disabled since.',
  },
  passwordlessResend: {
    summary: 'Send a new one-time code (after the cooldown)',
    description:
      'Within the cooldown after a code was asked for the answer is 429 with Retry-After; otherwise 200, as for POST /passwordless/login, whether or not the address has an account. The new code replaces the previous one.',
  },
} satisfies OperationDocs;
