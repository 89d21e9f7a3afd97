import { Type } from '@sinclair/typebox';
import { Uuid } from '../../../http/schema.js';

export const UserSetting = Type.Object(
  {
    type: Type.String({ description: 'Which settings document this is, e.g. softphone or notifications.' }),
    settings: Type.String({ description: 'A JSON-encoded payload.', examples: ['{"ringtone":"classic"}'] }),
  },
  { $id: 'UserSetting', examples: [{ type: 'softphone', settings: '{"ringtone":"classic","language":"de","auto_answer":false}' }] },
);

export const SaveUserSettingBody = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
    settings: Type.String({ maxLength: 65535, description: 'Must be a valid JSON document, sent as a string.' }),
  },
  {
    additionalProperties: false,
    examples: [{ type: 'softphone', settings: '{"ringtone":"classic","language":"de","auto_answer":false}' }],
  },
);
export const UserSettingParams = Type.Object({ user: Uuid(), type: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }) });
