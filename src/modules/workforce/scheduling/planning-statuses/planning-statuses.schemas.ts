import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PbxIdParam, Uuid } from '../../../../http/schema.js';

/** A planning status ("On duty") or, with parentId, a sub-status of one ("Phone"). camelCase, as schedule management is. */
export const PlanningStatus = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ examples: ['On duty'] }),
    parentId: Nullable(Uuid({ description: 'The status this sub-status belongs to; null for a status.' })),
    color: Nullable(Type.String({ description: '#RRGGBB', examples: ['#2E7D32'] })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  {
    $id: 'PlanningStatus',
    examples: [
      {
        id: 'efb39810-a490-469e-841a-ddff6aad52e8',
        name: 'Break',
        parentId: null,
        color: '#9E9E9E',
        createdAt: '2026-11-02T08:30:00.000Z',
        updatedAt: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type PlanningStatusView = Static<typeof PlanningStatus>;

const name = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Unique among the live statuses of the PBX, or among the sub-statuses of the same status.',
});
const color = Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB, or null.' }));
export const CreatePlanningStatusBody = Type.Object(
  {
    name,
    parentId: Type.Optional(Nullable(Uuid({ description: 'A live status (not a sub-status) of the PBX: makes this a sub-status of it.' }))),
    color: Type.Optional(color),
  },
  { additionalProperties: false, examples: [{ name: 'Hotline', parentId: null, color: '#1E88E5' }] },
);
export const UpdatePlanningStatusBody = Type.Object(
  { name: Type.Optional(name), color: Type.Optional(color) },
  { additionalProperties: false, examples: [{ name: 'Hotline 2nd level', color: '#43A047' }] },
);
export type CreatePlanningStatusInput = Static<typeof CreatePlanningStatusBody>;
export type UpdatePlanningStatusInput = Static<typeof UpdatePlanningStatusBody>;

export const PlanningStatusParams = Type.Object({ pbx_id: PbxIdParam, status: Uuid() });
