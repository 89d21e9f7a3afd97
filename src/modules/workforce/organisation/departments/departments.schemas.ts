import { TrashedFilterParam } from '../../../../http/soft-delete.js';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Embedded, Nullable, PbxIdParam, Uuid } from '../../../../http/schema.js';
import { IncludeParam } from '../../../../http/include.js';
import { ListQuery } from '../../../../http/list-query.js';
import { Company } from '../companies/companies.schemas.js';

export const DEPARTMENT_INCLUDES = ['company'] as const;

/** At most this many validators per department. */
export const MAX_VALIDATORS = 10;

const VALIDATORS_ROLE =
  "The department's validators: each of them decides (approves or rejects) the absence and home-office requests of the department's employees (those whose contract names this department); with none, any administrator of the PBX decides.";

export const Department = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ examples: ['Dispatch'] }),
    company_id: Nullable(Uuid({ description: 'The company the department belongs to; null for none.' })),
    validator_ids: Type.Array(Uuid(), {
      description: `${VALIDATORS_ROLE} Employee ids in the department's order; empty when none. A soft-deleted employee is left out while deleted.`,
    }),
    company: Type.Optional(
      Nullable(Embedded(Company), { description: 'With include=company: the company (a soft-deleted one shows its delete_date); null when none.' }),
    ),
    delete_date: Nullable(DateTime({ description: 'When the department was soft-deleted; null while it is live.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  {
    $id: 'Department',
    examples: [
      {
        id: '8a28f7c4-0ec7-4084-a3f6-e8b92261a4b3',
        name: 'Customer Service',
        company_id: 'b435c132-499f-4e72-b6ad-be0003a1867b',
        validator_ids: ['35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f'],
        delete_date: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type DepartmentView = Static<typeof Department>;

const Fields = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  company_id: Nullable(Uuid({ description: 'A live company of the PBX, or null; anything else is 422.' })),
  validator_ids: Type.Array(Uuid(), {
    maxItems: MAX_VALIDATORS,
    description: `${VALIDATORS_ROLE} Live employees of the PBX, each at most once, in order (at most ${MAX_VALIDATORS}); [] for none. On update it replaces the whole list when sent. An unknown, deleted or other tenant's employee, or one listed twice, is 422 on \`validator_ids.<index>\`.`,
  }),
});
export const CreateDepartmentBody = Type.Composite([Type.Pick(Fields, ['name']), Type.Partial(Type.Pick(Fields, ['company_id', 'validator_ids']))], {
  additionalProperties: false,
  examples: [{ name: 'Kundenservice', company_id: '0c5e8a2f-3b7d-4e91-a6c4-8f2d1b9e7a53', validator_ids: ['6a1f3c8e-9b2d-4f7a-8e5c-2d4b6f8a0c17'] }],
});
export const UpdateDepartmentBody = Type.Partial(Fields, { additionalProperties: false, examples: [{ name: 'Customer service', validator_ids: [] }] });
export type CreateDepartmentInput = Static<typeof CreateDepartmentBody>;
export type UpdateDepartmentInput = Static<typeof UpdateDepartmentBody>;

export const DepartmentsParams = Type.Object({ pbx_id: PbxIdParam });
export const DepartmentParams = Type.Object({ pbx_id: PbxIdParam, department: Uuid({ description: 'department id (UUID)' }) });
export const DepartmentInclude = Type.Object({ include: IncludeParam(DEPARTMENT_INCLUDES) });

export const DEPARTMENT_SORTS = ['name', 'created_at', 'updated_at'] as const;
export const DepartmentListQuery = ListQuery({
  sort: DEPARTMENT_SORTS,
  include: DEPARTMENT_INCLUDES,
  filters: {
    company_id: Uuid({ description: 'Departments of this company.' }),
    trashed: TrashedFilterParam('departments'),
  },
});
