import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Embedded, Nullable, PbxIdParam, Uuid } from '../../../http/schema.js';
import { IncludeParam } from '../../../http/include.js';
import { ListQuery } from '../../../http/list-query.js';
import { Company } from '../companies/company-view.js';

export const DEPARTMENT_INCLUDES = ['company'] as const;

export const Department = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ examples: ['Dispatch'] }),
    company_id: Nullable(Uuid({ description: 'The company the department belongs to; null for none.' })),
    company: Type.Optional(
      Nullable(Embedded(Company), { description: 'With include=company: the company (a soft-deleted one shows its delete_date); null when none.' }),
    ),
    delete_date: Nullable(DateTime({ description: 'When the department was soft-deleted; null while it is live.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'Department' },
);
export type DepartmentView = Static<typeof Department>;

const Fields = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  company_id: Nullable(Uuid({ description: 'A live company of the PBX, or null; anything else is 422.' })),
});
export const CreateDepartmentBody = Type.Composite([Type.Pick(Fields, ['name']), Type.Partial(Type.Pick(Fields, ['company_id']))], {
  additionalProperties: false,
});
export const UpdateDepartmentBody = Type.Partial(Fields, { additionalProperties: false });
export type CreateDepartmentInput = Static<typeof CreateDepartmentBody>;
export type UpdateDepartmentInput = Static<typeof UpdateDepartmentBody>;

export const DepartmentsParams = Type.Object({ pbx_id: PbxIdParam });
export const DepartmentParams = Type.Object({ pbx_id: PbxIdParam, department: Uuid({ description: 'department id (UUID)' }) });
export const DepartmentInclude = Type.Object({ include: IncludeParam(DEPARTMENT_INCLUDES) });

export const DEPARTMENT_SORTS = ['name', 'created_at', 'updated_at'] as const;
export const DepartmentListQuery = ListQuery({
  pageSize: 'per_page',
  sort: DEPARTMENT_SORTS,
  include: DEPARTMENT_INCLUDES,
  filters: {
    company_id: Uuid({ description: 'Departments of this company.' }),
    trashed: TrashedFilterParam('departments'),
  },
});
