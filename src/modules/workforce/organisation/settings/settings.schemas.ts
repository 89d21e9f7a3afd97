import { Type } from '@sinclair/typebox';
import { PbxIdParam, StringEnum } from '../../../../http/schema.js';
import { NAME_ORDERS } from '../full-name.js';
import { HourMinute } from '../../shared/index.js';

const nameOrder = StringEnum(NAME_ORDERS, {
  description: 'How every fullName of the workforce reads: first_last ("Anna Schmit") or last_first ("Schmit Anna"); people lists sort the same way.',
});
const halfDaySplit = HourMinute('HH:MM (00:00-23:59, local wall clock) where a half day\u2019s morning ends and its afternoon starts.');

export const WorkforceSettings = Type.Object(
  {
    name_order: nameOrder,
    half_day_split: halfDaySplit,
    timezone: Type.String({
      description: 'The PBX time zone (IANA), read-only here: the tenant\u2019s calendar days ("today") are counted in it.',
      examples: ['Europe/Luxembourg'],
    }),
  },
  { $id: 'WorkforceSettings', examples: [{ name_order: 'first_last', half_day_split: '12:00', timezone: 'Europe/Luxembourg' }] },
);

export const UpdateWorkforceSettingsBody = Type.Object(
  { name_order: Type.Optional(nameOrder), half_day_split: Type.Optional(halfDaySplit) },
  { additionalProperties: false, examples: [{ name_order: 'last_first', half_day_split: '12:30' }] },
);

export const SettingsParams = Type.Object({ pbx_id: PbxIdParam });
