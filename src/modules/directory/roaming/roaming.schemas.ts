import { Type } from '@sinclair/typebox';
import { Uuid } from '../../../http/schema.js';

export const RoamingLoginBody = Type.Object(
  {
    sip_device_id: Uuid({ description: 'The desk phone the user sits at.' }),
    extension: Type.String({ pattern: '^[0-9]{2,16}$', description: 'Number of the extension to log in; its user must have extension_roaming.' }),
  },
  { additionalProperties: false, examples: [{ sip_device_id: '7e9a1c3b-5d2f-4a6e-8b0c-1d3f5a7c9e20', extension: '201' }] },
);
export const RoamingLogoutBody = Type.Object(
  { sip_device_id: Uuid() },
  { additionalProperties: false, examples: [{ sip_device_id: '7e9a1c3b-5d2f-4a6e-8b0c-1d3f5a7c9e20' }] },
);
