import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../../http/list-query.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../../../http/schema.js';

/** The ledger types with a balance on the contract, in the contract's spelling: what a run changes. */
export const RECURRING_TYPES = ['legal', 'home_office', 'overtime_balance'] as const;
export const TR_TYPES = ['credit', 'debit'] as const;
export const FREQUENCIES = ['monthly_start', 'yearly_start'] as const;
export const RECURRING_STATUSES = ['active', 'paused', 'completed', 'failed'] as const;

export const MAX_NOTE_LENGTH = 65535;
/**
 * The contract asks only amount > 0. This bound, in the template's unit (days or hours), is the
 * API's own: no real allotment comes near it, so it catches a wrong unit (minutes or seconds sent
 * as hours) before a run books it, and keeps an overtime run (10,000 h = 36,000,000 s) and the
 * balance it changes far inside their 32-bit columns of seconds (at most 2,147,483,647 s).
 */
export const MAX_AMOUNT = 10000;
const AMOUNT_RULE =
  `Greater than 0 and at most ${MAX_AMOUNT}, in the template\u2019s unit: days for legal and home_office, hours for overtime_balance (fractions allowed, e.g. 0.5). ` +
  `The contract asks only > 0; the upper bound is this API\u2019s (422 above it): no real allotment comes near ${MAX_AMOUNT} days or hours, so it catches a wrong unit ` +
  `(minutes or seconds sent as hours), and it keeps an overtime run (${MAX_AMOUNT} h = ${MAX_AMOUNT * 3600} s) far inside the 32-bit balance of seconds.`;

const TYPE_RULE =
  'legal: paid-leave days (the contract\u2019s leave_balance); home_office: home-office days (ho_balance, which must be tracked, i.e. not null, when a run comes); ' +
  'overtime_balance: hours of overtime (compensatory_balance, kept in seconds: a run books round(amount \u00d7 3600) seconds).';

export const RecurringTransaction = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid({ description: 'The PBX that owns it: the one of the API key that made it.' }),
    employee_id: Uuid({ description: 'The employee whose balance each run changes.' }),
    type: Type.String({ description: `The balance a run changes. ${TYPE_RULE}`, examples: ['legal'] }),
    sub_type: Nullable(Type.String({ description: 'A free label, copied to the sub_type of every ledger row a run writes (`recurring` when null).' })),
    absence_type_id: Nullable(Uuid({ description: 'An absence type of the PBX whose type is this type.' })),
    amount: Type.Number({
      description: `Always > 0 and at most ${MAX_AMOUNT}: days for legal and home_office, hours for overtime_balance (see the request body for the bound).`,
      examples: [26],
    }),
    tr_type: StringEnum(TR_TYPES, { description: 'credit adds the amount to the balance at each run, debit takes it.' }),
    note: Nullable(Type.String({ description: 'Copied to the comment of every ledger row a run writes.' })),
    frequency: StringEnum(FREQUENCIES, {
      description: "When it runs: at the start of every month, or every year (1 January), at local midnight in the PBX's time zone.",
    }),
    run_once: Type.Boolean({ description: 'true: runs a single time, then completes.' }),
    status: StringEnum(RECURRING_STATUSES, {
      description:
        'active: runs when due; paused: does not run until resumed; completed: a run_once template that ran (final); failed: the last run could not apply (see failure_reason) until resumed.',
    }),
    failure_reason: Nullable(Type.String({ description: 'Why the last run failed; null otherwise.' })),
    next_run_at: Nullable(
      DateTime({
        description:
          'When the next run is due (the start of a month or year, local midnight, as UTC); null unless active. The first run (on create, resume or a new frequency) ' +
          'is the first such start after now on a day a contract of the employee covers: never before the contract\u2019s first day.',
      }),
    ),
    last_run_at: Nullable(
      DateTime({ description: 'The due instant of the last run that applied (a run catching up after downtime shows the period it booked, not when it ran).' }),
    ),
    last_transaction_id: Nullable(Type.String({ description: 'The ledger row (absence request id) the last run wrote.' })),
    created_by_user_id: Nullable(Type.String({ description: 'Always null: templates are made through the PBX API key.' })),
    created_at: Nullable(DateTime()),
    updated_at: Nullable(DateTime()),
  },
  {
    $id: 'RecurringTransaction',
    examples: [
      {
        id: '3033bfa0-3acf-4e31-baa5-592bd423e2cb',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        employee_id: '12b55511-74b7-4ef6-b593-b3878fcb0519',
        type: 'overtime_balance',
        sub_type: 'bonus',
        absence_type_id: 'b5ed602a-25ef-4f15-b43d-05a61a4882d7',
        amount: 4,
        tr_type: 'credit',
        note: 'Inventory weekend: one-off overtime credit',
        frequency: 'monthly_start',
        run_once: true,
        status: 'completed',
        failure_reason: null,
        next_run_at: null,
        last_run_at: '2026-10-31T23:00:00.000Z',
        last_transaction_id: 'f9a63337-4fab-4313-af59-699ed06b2d46',
        created_by_user_id: null,
        created_at: '2026-10-26T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type RecurringTransactionView = Static<typeof RecurringTransaction>;

const amount = Type.Number({
  exclusiveMinimum: 0,
  maximum: MAX_AMOUNT,
  description: AMOUNT_RULE,
  examples: [2.5],
});
const trType = StringEnum(TR_TYPES, { description: 'credit adds the amount at each run, debit takes it.' });
const note = Nullable(Type.String({ maxLength: MAX_NOTE_LENGTH, description: `0-${MAX_NOTE_LENGTH} characters.` }));
const frequency = StringEnum(FREQUENCIES, { description: 'monthly_start (the 1st of every month) or yearly_start (every 1 January), in the PBX time zone.' });
const runOnce = Type.Boolean({ description: 'true: runs a single time, then completes (default false).' });

export const CreateRecurringTransactionBody = Type.Object(
  {
    employee_id: Uuid({
      description:
        'A live employee of the PBX with a contract that covers a run: the first run is the first start of a month (or year) after now on a day one of the ' +
        'employee\u2019s contracts covers, so never before the contract\u2019s first day (a contract starting on 15 March: 1 April, monthly; the next 1 January, yearly). ' +
        '422 when no contract of the employee covers a period start from now on (none at all, or all ending before the next one).',
    }),
    type: StringEnum(RECURRING_TYPES, { description: `The balance each run changes. ${TYPE_RULE}` }),
    sub_type: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'A free label, 1-64 characters.', examples: ['allotment'] }))),
    absence_type_id: Type.Optional(Nullable(Uuid({ description: 'A live absence type of the PBX whose type equals type.' }))),
    amount,
    tr_type: trType,
    note: Type.Optional(note),
    frequency,
    run_once: Type.Optional(runOnce),
  },
  {
    additionalProperties: false,
    examples: [
      {
        employee_id: '6a1f3c8e-9b2d-4f7a-8e5c-2d4b6f8a0c17',
        type: 'legal',
        sub_type: 'allotment',
        absence_type_id: null,
        amount: 2.5,
        tr_type: 'credit',
        note: 'Monthly paid-leave allotment (30 days a year)',
        frequency: 'monthly_start',
        run_once: false,
      },
    ],
  },
);
export type CreateRecurringTransactionInput = Static<typeof CreateRecurringTransactionBody>;

export const UpdateRecurringTransactionBody = Type.Object(
  {
    amount: Type.Optional(amount),
    tr_type: Type.Optional(trType),
    note: Type.Optional(note),
    frequency: Type.Optional(frequency),
    run_once: Type.Optional(runOnce),
  },
  { additionalProperties: false, examples: [{ amount: 2.25, note: 'Allotment reduced to 27 days a year from March' }] },
);
export type UpdateRecurringTransactionInput = Static<typeof UpdateRecurringTransactionBody>;

export const RecurringTransactionParams = Type.Object({ id: Uuid({ description: 'The recurring transaction id.' }) });

export const RecurringTransactionListQuery = ListQuery({
  search: false,
  sort: ['created_at', 'next_run_at'],
  filters: {
    employee_id: Uuid({ description: 'Templates of this employee.' }),
    status: StringEnum(RECURRING_STATUSES, { description: 'Templates in this status.' }),
  },
});
