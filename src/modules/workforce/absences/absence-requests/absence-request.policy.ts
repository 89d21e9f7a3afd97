/**
 * Who may do what to an absence request, stated once. Each relation a caller's employee may have
 * to a request is written as a check on a loaded record and as SQL on `absence_requests`, side by
 * side; each rule names the relations that allow it. The pure checks serve the reads and the
 * moves, the SQL the lists (absence-requests.queries.ts), and absence-request.policy.test.ts
 * proves the two agree on a table of cases.
 *
 * The actor is resolved once per request (the routes' `scope`): administrators and the PBX key
 * manage every employee; any other user acts through the employee record its user is linked to.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { isAdmin, type Principal } from '../../../../platform/auth/principal.js';
import type { ValidatorStatus } from '../absences.tables.js';

export interface AbsenceActor {
  /** An administrator of the PBX or its API key: sees every request and decides every pending entry. */
  manages: boolean;
  /** The live employee record the caller's user is linked to (null: none, or not a user token). */
  employeeId: string | null;
}

export function absenceActor(principal: Principal, employeeId: string | null | undefined): AbsenceActor {
  return { manages: principal.kind === 'pbx' || isAdmin(principal), employeeId: principal.kind === 'user' ? (employeeId ?? null) : null };
}

/** A request as the policy reads it: its employee and its validator entries. */
export interface AbsenceRecord {
  employee_id: string;
  validators: ReadonlyArray<{ employee_id: string | null; status: ValidatorStatus }>;
}

type RequestsEb = ExpressionBuilder<DB, 'absence_requests'>;

interface Relation {
  holds: (employeeId: string, record: AbsenceRecord) => boolean;
  where: (eb: RequestsEb, employeeId: string) => Expression<SqlBool>;
}

/** How an employee may stand to a request. */
const RELATIONS = {
  /** The request is the employee's own. */
  owner: {
    holds: (employeeId, record) => record.employee_id === employeeId,
    where: (eb, employeeId) => eb('absence_requests.employee_id', '=', employeeId),
  },
  /** The employee has an entry among the request's validators (an entry for "any administrator" names nobody). */
  validator: {
    holds: (employeeId, record) => record.validators.some((entry) => entry.employee_id === employeeId),
    where: (eb, employeeId) =>
      eb(
        'absence_requests.id',
        'in',
        eb
          .selectFrom('absence_request_validators')
          .select('absence_request_validators.absence_request_id')
          .where('absence_request_validators.employee_id', '=', employeeId),
      ),
  },
} satisfies Record<string, Relation>;
type RelationName = keyof typeof RELATIONS;

interface Rule {
  /** Administrators and the PBX key are allowed. */
  managers: boolean;
  /** An employee standing in any of these relations is allowed. */
  relations: readonly RelationName[];
  /** Nobody standing in this relation is allowed, managers included. */
  except?: RelationName;
}

export const ABSENCE_RULES = {
  /** Read it (else 404, as for a row that does not exist), and run a move on it. */
  see: { managers: true, relations: ['owner', 'validator'] },
  /** Approve or reject: nobody decides a request of their own. */
  decide: { managers: true, relations: ['validator'], except: 'owner' },
  /** Cancel it while pending, or ask to take it back once accepted. */
  withdraw: { managers: true, relations: ['owner'] },
} satisfies Record<string, Rule>;

function allows(rule: Rule, actor: AbsenceActor, record: AbsenceRecord): boolean {
  const { employeeId } = actor;
  if (rule.except && employeeId !== null && RELATIONS[rule.except].holds(employeeId, record)) return false;
  if (rule.managers && actor.manages) return true;
  return employeeId !== null && rule.relations.some((name) => RELATIONS[name].holds(employeeId, record));
}

export const canSee = (actor: AbsenceActor, record: AbsenceRecord) => allows(ABSENCE_RULES.see, actor, record);
export const canDecide = (actor: AbsenceActor, record: AbsenceRecord) => allows(ABSENCE_RULES.decide, actor, record);
export const canWithdraw = (actor: AbsenceActor, record: AbsenceRecord) => allows(ABSENCE_RULES.withdraw, actor, record);

/** A list across employees: managers see every row; any other user needs an employee record. */
export const canListAcross = (actor: AbsenceActor) => actor.manages || actor.employeeId !== null;

/** The validator entries a decision of the actor settles: a manager every pending one, a validator its own pending one. */
export function entriesDecidedBy<E extends AbsenceRecord['validators'][number]>(actor: AbsenceActor, entries: readonly E[]): E[] {
  return entries.filter((entry) => entry.status === 'pending' && (actor.manages || (actor.employeeId !== null && entry.employee_id === actor.employeeId)));
}

/**
 * A rule as SQL on `absence_requests` for a plain employee (not a manager; managers are not
 * filtered): the requests `employeeId` stands to in an allowing relation, none excepted.
 */
export function whereAllowed(rule: Rule, eb: RequestsEb, employeeId: string): Expression<SqlBool> {
  const allowed = eb.or(rule.relations.map((name) => RELATIONS[name].where(eb, employeeId)));
  return rule.except ? eb.and([allowed, eb.not(RELATIONS[rule.except].where(eb, employeeId))]) : allowed;
}

/** The rows a plain employee sees: its own and those it validates. */
export const whereVisibleTo = (eb: RequestsEb, employeeId: string) => whereAllowed(ABSENCE_RULES.see, eb, employeeId);
