import { Type } from '@sinclair/typebox';
import { MessageData } from '../../../http/schema.js';

// The demo tenant's accounts (src/demo-seed.ts), so the docs page's Try it out works on a demo server.
const Email = Type.String({ format: 'email', maxLength: 255, examples: ['anna.schmit@acme.example'] });

export const LoginBody = Type.Object(
  { email: Email, password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false, examples: [{ email: 'anna.schmit@acme.example', password: 'acme-anna-2026' }] },
);
export const EmailBody = Type.Object({ email: Email }, { additionalProperties: false, examples: [{ email: 'luc.weber@acme.example' }] });
export const VerifyBody = Type.Object(
  { email: Email, code: Type.String({ minLength: 4, maxLength: 12, examples: ['482913'] }) },
  { additionalProperties: false, examples: [{ email: 'luc.weber@acme.example', code: '482913' }] },
);
export const MagicLoginParams = Type.Object({ token: Type.String({ minLength: 16, maxLength: 128 }) });

export const TokenResponse = MessageData(Type.Object({ token: Type.String({ examples: ['pbxu_4Jd1x0aQh5vKkq0N4d3WZr5s7u9Ppq2xY1aB3c'] }) }));
export const CodeSentResponse = Type.Object(
  { success: Type.Boolean(), expires_in: Type.Integer({ description: 'Seconds until the code expires.' }) },
  { examples: [{ success: true, expires_in: 600 }] },
);
export const MessageResponse = Type.Object({ message: Type.String() });
