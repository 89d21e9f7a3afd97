import { TrashedFilterParam } from '../../../../http/soft-delete.js';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PbxIdParam, Uuid } from '../../../../http/schema.js';
import { ListQuery } from '../../../../http/list-query.js';

export const Employee = Type.Object(
  {
    id: Uuid(),
    ext_id: Nullable(Type.String({ description: 'The employee\u2019s id in an external HR system; unique within the PBX.', examples: ['A-1002'] })),
    first_name: Type.String({ examples: ['Luc'] }),
    last_name: Type.String({ examples: ['Weber'] }),
    fullName: Type.String({
      description: 'First and last name in the PBX\u2019s name order (workforce settings): "Luc Weber" (first_last) or "Weber Luc" (last_first).',
      examples: ['Luc Weber'],
    }),
    user_id: Nullable(
      Uuid({
        description:
          'The user linked to this employee (shown on the user as employee_id and on its /me); null for none. Set and changed only here. A soft-deleted employee or user is linked to no one.',
      }),
    ),
    delete_date: Nullable(DateTime({ description: 'When the employee was soft-deleted; null while it is live.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  {
    $id: 'Employee',
    examples: [
      {
        id: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f',
        ext_id: 'A-1001',
        first_name: 'Anna',
        last_name: 'Schmit',
        fullName: 'Anna Schmit',
        user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
        delete_date: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type EmployeeView = Static<typeof Employee>;

const Fields = Type.Object({
  ext_id: Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'Unique within the PBX, soft-deleted employees included (422 when taken).' })),
  first_name: Type.String({ minLength: 1, maxLength: 255 }),
  last_name: Type.String({ minLength: 1, maxLength: 255 }),
  user_id: Nullable(
    Uuid({
      description:
        'Link a user: an active or disabled, not deleted, user of the PBX that no other employee has (422 otherwise, naming that employee). null unlinks.',
    }),
  ),
});
export const CreateEmployeeBody = Type.Composite([Type.Pick(Fields, ['first_name', 'last_name']), Type.Partial(Type.Pick(Fields, ['ext_id', 'user_id']))], {
  additionalProperties: false,
  examples: [{ first_name: 'Claire', last_name: 'Schmit', ext_id: 'LU-00417', user_id: '3f6c1a52-8d4e-4b7a-9c2f-5e1d7a9b0c31' }],
});
export const UpdateEmployeeBody = Type.Partial(Fields, { additionalProperties: false, examples: [{ last_name: 'Schmit-Weber', user_id: null }] });
export type CreateEmployeeInput = Static<typeof CreateEmployeeBody>;
export type UpdateEmployeeInput = Static<typeof UpdateEmployeeBody>;

export const EmployeesParams = Type.Object({ pbx_id: PbxIdParam });
export const EmployeeParams = Type.Object({ pbx_id: PbxIdParam, employee: Uuid({ description: 'employee id (UUID)' }) });

/** `name` sorts as the PBX writes names (its name order); the others by that column. */
export const EMPLOYEE_SORTS = ['name', 'first_name', 'last_name', 'ext_id', 'created_at', 'updated_at'] as const;
export const EmployeeListQuery = ListQuery({
  sort: EMPLOYEE_SORTS,
  filters: {
    user_id: Uuid({ description: 'The employee linked to this user.' }),
    has_user: Type.Boolean({ description: 'true: employees linked to a user; false: the others.' }),
    trashed: TrashedFilterParam('employees'),
  },
});
