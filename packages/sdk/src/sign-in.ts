/**
 * Getting a client for each kind of principal: a user signs in (password, magic link, one-time
 * code) and gets a user token; the API keys (PBX, integration, internal, PBX server) are made by an
 * administrator or the CLI and used as they are.
 */
import { PbxApi, principalOf, type PbxApiOptions, type PrincipalKind } from './client.js';

type Server = Omit<PbxApiOptions, 'token'>;

const anonymous = (server: Server) => new PbxApi({ ...server, token: undefined });

const withToken = (server: Server, answer: { data: { token: string } } | undefined): PbxApi => {
  if (!answer) throw new Error('the sign-in answered no token');
  return new PbxApi({ ...server, token: answer.data.token });
};

export const signIn = {
  /** POST /login: e-mail and password. */
  async password(server: Server, credentials: { email: string; password: string }): Promise<PbxApi> {
    return withToken(server, await anonymous(server).post('/login', { body: credentials }));
  },

  /** POST /magic-link: e-mails a single-use link (the answer is the same whether or not the address has an account). */
  async requestMagicLink(server: Server, email: string): Promise<void> {
    await anonymous(server).post('/magic-link', { body: { email } });
  },

  /** GET /magic-login/{token}: the link's token for a user token. */
  async magicLink(server: Server, token: string): Promise<PbxApi> {
    return withToken(server, await anonymous(server).get('/magic-login/{token}', { params: { path: { token } } }));
  },

  /** POST /passwordless/login: e-mails a one-time code; `resend` asks for a new one after the cooldown. */
  async requestCode(server: Server, email: string, options: { resend?: boolean } = {}): Promise<{ expires_in: number }> {
    const api = anonymous(server);
    const answer = options.resend ? await api.post('/passwordless/resend', { body: { email } }) : await api.post('/passwordless/login', { body: { email } });
    if (!answer) throw new Error('the code request answered nothing');
    return { expires_in: answer.expires_in };
  },

  /** POST /passwordless/verify: the code for a user token. */
  async code(server: Server, credentials: { email: string; code: string }): Promise<PbxApi> {
    return withToken(server, await anonymous(server).post('/passwordless/verify', { body: credentials }));
  },

  /**
   * An API key as it is: a PBX key (`pbxk_`), an integration key (`pbxi_`, limited to its scopes),
   * the internal key (`pbxn_`) or the PBX server key (`pbxs_`). `kind`, when given, must match the
   * key's prefix, so a key pasted in the wrong setting fails here and not at the first call.
   */
  apiKey(server: Server, key: string, kind?: Exclude<PrincipalKind, 'user'>): PbxApi {
    const actual = principalOf(key);
    if (!actual || actual === 'user') throw new Error('not a pbx-api API key (pbxk_, pbxi_, pbxn_ or pbxs_)');
    if (kind && kind !== actual) throw new Error(`a ${actual} key where a ${kind} key was expected`);
    return new PbxApi({ ...server, token: key });
  },
};
