import { Type } from '@sinclair/typebox';
import { Uuid } from '../../../http/schema.js';

export const RoamingLoginBody = Type.Object(
  {
    sip_device_id: Uuid({ description: 'The desk phone the user sits at.' }),
    extension: Type.String({ pattern: '^[0-9]{2,16}$', description: 'Number of the extension to log in; its user must have extension_roaming.' }),
  },
  { additionalProperties: false },
);
export const RoamingLogoutBody = Type.Object({ sip_device_id: Uuid() }, { additionalProperties: false });
