import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../../http/list-query.js';
import { DateTime, Nullable, PbxIdParam, Uuid } from '../../../../http/schema.js';
import { Day, TrashedFilter } from '../../shared/index.js';
import { ContractCompanySchema } from '../../organisation/index.js';

const LEAVE_BALANCE =
  'Paid-leave days left on this contract. Approving a legal absence debits it by the request\u2019s working_days; an approved removal credits them back. Not in the contract\u2019s list of fields: an addition.';

/** The contract's user company: one employee-company contract. */
export const UserCompany = Type.Object(
  {
    id: Uuid({ description: 'The contract id.' }),
    mxvp_user_id: Uuid({ description: 'The tenant (PBX).' }),
    ext_id: Nullable(Type.String({ description: "The employee's id in an external HR system." })),
    company_id: Nullable(Uuid()),
    participation: Nullable(Type.Number({ description: '1.0 = full time.', examples: [0.5] })),
    contract_start: DateTime({ description: 'The first day of the contract, at midnight UTC.', examples: ['2021-03-01T00:00:00.000Z'] }),
    contract_end: Nullable(DateTime({ description: 'The last day of the contract, at midnight UTC; null = open-ended.' })),
    main_company: Type.Unsafe<0 | 1>({
      type: 'integer',
      enum: [0, 1],
      description:
        'Without filter[active] on the employee list: 1 on the contract active today (if several, the stored main one, else the earliest started), 0 on every other. Elsewhere: the stored flag.',
    }),
    compensatory_balance: Type.Integer({ description: 'Seconds; never null.' }),
    ho_balance: Nullable(Type.Number()),
    leave_balance: Type.Number({ description: LEAVE_BALANCE + ' Never null.', examples: [21.5] }),
    title: Nullable(Type.String({ description: 'Job title.' })),
    department_id: Nullable(Uuid()),
    delete_date: Nullable(DateTime({ description: 'When the contract was soft-deleted; null while it is live.' })),
    company: ContractCompanySchema,
  },
  {
    $id: 'UserCompany',
    examples: [
      {
        id: '5d4e6a63-7218-4345-962b-5e7b552d30fe',
        mxvp_user_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        ext_id: 'A-1002',
        company_id: 'b435c132-499f-4e72-b6ad-be0003a1867b',
        participation: 0.5,
        contract_start: '2023-09-01T00:00:00.000Z',
        contract_end: null,
        main_company: 1,
        compensatory_balance: 19800,
        ho_balance: 8,
        leave_balance: 12,
        title: 'Customer Service Agent',
        department_id: '8a28f7c4-0ec7-4084-a3f6-e8b92261a4b3',
        delete_date: null,
        company: {
          id: 'b435c132-499f-4e72-b6ad-be0003a1867b',
          mxvp_user_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
          company: 'Acme Logistics S.à r.l.',
          address: '12 Rue de la Gare L-1611 Luxembourg',
          country_cc: 'LU',
          legalHolidays: 26,
          full_time: 144000,
          salary_lu_id: null,
          overtime_calculation_period_enabled: false,
          overtime_decision_enabled: false,
          delete_date: null,
        },
      },
    ],
  },
);
export type UserCompanyView = Static<typeof UserCompany>;

/** `main_company` in input: 0, 1, true or false. */
const MainCompanyInput = Type.Unsafe<0 | 1 | boolean>({
  type: ['integer', 'boolean'],
  enum: [0, 1, true, false],
  description: '0, 1, true or false. Setting it clears the flag on every other contract of the employee (at most one stored main contract).',
});

const fields = {
  company_id: Type.Optional(Nullable(Uuid({ description: 'A live company of the PBX.' }))),
  department_id: Type.Optional(
    Nullable(Uuid({ description: 'A live department of the PBX; when it belongs to a company, that must be the contract\u2019s company.' })),
  ),
  participation: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'Share of full time, above 0 up to 1.' }))),
  contract_end: Type.Optional(Nullable(Day('The last day (inclusive), on or after contract_start; null = open-ended.'))),
  main_company: Type.Optional(MainCompanyInput),
  compensatory_balance: Type.Optional(Type.Integer({ minimum: -2147483648, maximum: 2147483647, description: 'Seconds (default 0).' })),
  ho_balance: Type.Optional(Nullable(Type.Number())),
  leave_balance: Type.Optional(Type.Number({ description: LEAVE_BALANCE + ' Days, any number, negative included (default 0).' })),
  title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
};

export const CreateContractBody = Type.Object(
  { ...fields, contract_start: Day('The first day of the contract.') },
  {
    additionalProperties: false,
    examples: [
      {
        company_id: '0c5e8a2f-3b7d-4e91-a6c4-8f2d1b9e7a53',
        department_id: '2b4d6f8a-0c1e-4a3b-9d5f-7e9a1c3b5d70',
        participation: 0.8,
        contract_start: '2026-01-01',
        contract_end: null,
        main_company: true,
        compensatory_balance: 0,
        leave_balance: 5.5,
        title: 'Sachbearbeiterin Buchhaltung',
      },
    ],
  },
);
export const UpdateContractBody = Type.Object(
  { ...fields, contract_start: Type.Optional(Day('The first day of the contract.')) },
  { additionalProperties: false, examples: [{ participation: 1, contract_end: '2026-12-31', title: 'Teamleiterin Buchhaltung' }] },
);
export type ContractInput = Static<typeof UpdateContractBody>;

export const ContractParams = Type.Object({ pbx_id: PbxIdParam, contract: Uuid({ description: 'The contract (user company) id.' }) });

export const UserCompanyListQuery = ListQuery({
  pageSize: 'per_page',
  search: false,
  sort: ['from', 'to'],
  filters: {
    from: Day('Contracts starting on or after this day.'),
    to: Day('Contracts ending on or before this day (open-ended contracts never end, so they are left out); not before filter[from].'),
    active: Type.Boolean({ description: "true: contracts active on the tenant's today (started, not ended); false: the others." }),
    trashed: TrashedFilter,
  },
});
