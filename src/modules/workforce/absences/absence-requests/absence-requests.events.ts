import { Type, type TSchema } from '@sinclair/typebox';
import type { Executor } from '../../../../db/database.js';
import { DateOnly, Nullable, StringEnum, Uuid } from '../../../../http/schema.js';
import type { AppContext } from '../../../../platform/context.js';
import { defineEventKind, type EventKind } from '../../../../platform/events/index.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { StoredAbsenceType } from '../absences.tables.js';
import { exposedType } from './absence-requests.presenter.js';
import { ABSENCE_TYPES } from './absence-requests.schemas.js';

/**
 * Live events of the decisions on the ledger's requests: asked for, approved, rejected, canceled,
 * and the same for a request to take an accepted one back (a removal request, a row of its own).
 * `absence_request.*` for absences, `home_office_request.*` for home-office days. The subject is
 * the row the decision is about (`GET /{pbx_id}/absence-requests/{id}` reads both kinds of rows):
 * its employee and its validators read it, so their users receive it, with the administrators and
 * the PBX key, who manage every request (absence-request.policy.ts).
 */
const DECISIONS = {
  requested: 'was asked for: it awaits its validators',
  approved: 'was approved by its last validator (or an administrator)',
  rejected: 'was rejected by a validator (or an administrator)',
  canceled: 'was withdrawn while pending by its employee or an administrator (for a removal request: the request it would take back stays accepted)',
  removal_requested: 'is asked to be taken back: a removal request (the subject) awaits its validators, the request is pending removal',
  removal_approved: 'was taken back: its removal request (the subject) was approved, the request is removed and its balance credited back',
  removal_rejected: 'stays: its removal request (the subject) was rejected, the request is accepted again',
} as const;
type Decision = keyof typeof DECISIONS;

const FAMILIES = {
  absence_request: { what: 'An absence request', types: ABSENCE_TYPES.filter((type) => type !== 'home_office') },
  home_office_request: { what: 'A home-office day', types: ['home_office'] as const },
} as const;
type Family = keyof typeof FAMILIES;

function decisionData(family: Family, decision: Decision): TSchema {
  const removal = decision.startsWith('removal_');
  return Type.Object(
    {
      employee_id: Uuid(),
      type: StringEnum(FAMILIES[family].types),
      start: DateOnly(),
      end: DateOnly(),
      removal_of_id: removal
        ? Uuid({ description: 'The accepted request the removal request takes back.' })
        : Nullable(Uuid({ description: 'For a canceled removal request: the request it would have taken back; else null.' })),
    },
    {
      examples: [
        {
          employee_id: '35e7ffb7-97c6-4d7f-9c36-cd9b580f4f0f',
          type: family === 'home_office_request' ? 'home_office' : 'legal',
          start: '2026-12-21',
          end: family === 'home_office_request' ? '2026-12-21' : '2026-12-24',
          removal_of_id: removal ? '0b0a2d6c-6f5e-4d2a-9c1b-7f7c1d1e2a33' : null,
        },
      ],
    },
  );
}

const kinds = Object.fromEntries(
  (Object.keys(FAMILIES) as Family[]).map((family) => [
    family,
    Object.fromEntries(
      (Object.keys(DECISIONS) as Decision[]).map((decision) => [
        decision,
        defineEventKind({
          kind: `${family}.${decision}`,
          subject: 'absence_request',
          description: `${FAMILIES[family].what} ${DECISIONS[decision]}.`,
          data: decisionData(family, decision),
          pbxKey: true,
        }),
      ]),
    ),
  ]),
) as Record<Family, Record<Decision, EventKind>>;

/** The ledger row a decision is about, and the employees its validator entries name (null: any administrator). */
export interface DecidedRow {
  id: string;
  employee_id: string;
  type: StoredAbsenceType;
  start_day: string;
  end_day: string;
  removal_of_id: string | null;
}

/**
 * The decision's event, in its transaction (late: after the row's change). A removal request's
 * asking, approval and rejection are the `removal_*` kinds; its cancel is `canceled`.
 */
export async function publishAbsenceDecision(
  ctx: AppContext,
  trx: Executor,
  tenant: Tenant,
  row: DecidedRow,
  validators: ReadonlyArray<string | null>,
  decision: 'requested' | 'approved' | 'rejected' | 'canceled',
): Promise<void> {
  const family: Family = row.type === 'home_office' ? 'home_office_request' : 'absence_request';
  const kind = kinds[family][row.removal_of_id && decision !== 'canceled' ? (`removal_${decision}` as Decision) : decision];
  const employees = [...new Set([row.employee_id, ...validators.filter((id): id is string => id !== null)])];
  // The users linked to those employees (users.employee_id): one statement.
  const users = await trx
    .selectFrom('users')
    .select('id')
    .where('pbx_id', '=', tenant.pbxId)
    .where('employee_id', 'in', employees)
    .where('deleted_at', 'is', null)
    .execute();
  await ctx.events.publish(trx, {
    pbxId: tenant.pbxId,
    kind,
    subject: { type: 'absence_request', id: row.id },
    audience: { scope: 'users', userIds: users.map((user) => user.id) },
    data: { employee_id: row.employee_id, type: exposedType(row.type), start: row.start_day, end: row.end_day, removal_of_id: row.removal_of_id },
  });
}
