import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../../platform/auth/principal.js';
import { buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import { createWorkforceTenant, createEmployee } from '../../../../../test/workforce-factories.js';
import {
  absenceActor,
  canDecide,
  canListAcross,
  canSee,
  canWithdraw,
  entriesDecidedBy,
  type AbsenceActor,
  type AbsenceRecord,
} from './absence-request.policy.js';
import { insertAbsenceRequests, insertValidators, listAbsenceRequests } from './absence-requests.queries.js';
import { validatorEntries } from './approvals.js';
import { ledgerRow } from './ledger-writes.js';

const OWNER = 'e-owner';
const VALIDATOR = 'e-validator';
const OTHER = 'e-other';

/** The kinds of caller, as the routes' scope resolves them. */
const ACTORS: Record<string, AbsenceActor> = {
  administrator: { manages: true, employeeId: null },
  'administrator owning it': { manages: true, employeeId: OWNER },
  'administrator validating it': { manages: true, employeeId: VALIDATOR },
  'PBX key': { manages: true, employeeId: null },
  'its employee': { manages: false, employeeId: OWNER },
  'its validator': { manages: false, employeeId: VALIDATOR },
  'another employee': { manages: false, employeeId: OTHER },
  'a user without employee record': { manages: false, employeeId: null },
};

/** How a request may stand to its callers: validated by a named employee, or by "any administrator". */
const RECORDS: Record<string, AbsenceRecord> = {
  'named validator': { employee_id: OWNER, validators: [{ employee_id: VALIDATOR, status: 'pending' }] },
  'any administrator': { employee_id: OWNER, validators: [{ employee_id: null, status: 'pending' }] },
};

/** actor -> record -> [see, decide, withdraw]. */
const EXPECTED: Record<string, Record<string, [boolean, boolean, boolean]>> = {
  administrator: { 'named validator': [true, true, true], 'any administrator': [true, true, true] },
  'administrator owning it': { 'named validator': [true, false, true], 'any administrator': [true, false, true] },
  'administrator validating it': { 'named validator': [true, true, true], 'any administrator': [true, true, true] },
  'PBX key': { 'named validator': [true, true, true], 'any administrator': [true, true, true] },
  'its employee': { 'named validator': [true, false, true], 'any administrator': [true, false, true] },
  'its validator': { 'named validator': [true, true, false], 'any administrator': [false, false, false] },
  'another employee': { 'named validator': [false, false, false], 'any administrator': [false, false, false] },
  'a user without employee record': { 'named validator': [false, false, false], 'any administrator': [false, false, false] },
};

describe('absence request policy', () => {
  const cases = Object.entries(ACTORS).flatMap(([actorName, actor]) =>
    Object.entries(RECORDS).map(([recordName, record]) => ({ actorName, actor, recordName, record, expected: EXPECTED[actorName][recordName] })),
  );

  it.each(cases)('$actorName, request with $recordName', ({ actor, record, expected }) => {
    expect([canSee(actor, record), canDecide(actor, record), canWithdraw(actor, record)]).toEqual(expected);
  });

  it('a decision settles every pending entry for a manager, the validator’s own pending entry otherwise', () => {
    const entries = [
      { id: 'a', employee_id: VALIDATOR, status: 'pending' as const },
      { id: 'b', employee_id: OTHER, status: 'pending' as const },
      { id: 'c', employee_id: VALIDATOR, status: 'accepted' as const },
      { id: 'd', employee_id: null, status: 'pending' as const },
    ];
    expect(entriesDecidedBy(ACTORS['administrator'], entries).map((entry) => entry.id)).toEqual(['a', 'b', 'd']);
    expect(entriesDecidedBy(ACTORS['its validator'], entries).map((entry) => entry.id)).toEqual(['a']);
    expect(entriesDecidedBy(ACTORS['its employee'], entries)).toEqual([]);
  });

  it('lists across employees: managers, and users with an employee record', () => {
    expect(
      Object.entries(ACTORS)
        .filter(([, actor]) => canListAcross(actor))
        .map(([name]) => name),
    ).toEqual(Object.keys(ACTORS).filter((name) => name !== 'a user without employee record'));
  });

  it('resolves the actor from the principal: administrators and the PBX key manage; only a user token has an employee', () => {
    const user = (role: 'admin' | 'user'): Principal => ({ kind: 'user', id: 'u', userId: 'u', pbxId: 'p', role, tokenId: 't', rateLimit: null });
    expect(absenceActor(user('admin'), 'e')).toEqual({ manages: true, employeeId: 'e' });
    expect(absenceActor(user('user'), 'e')).toEqual({ manages: false, employeeId: 'e' });
    expect(absenceActor(user('user'), undefined)).toEqual({ manages: false, employeeId: null });
    expect(absenceActor({ kind: 'pbx', id: 'k', pbxId: 'p', rateLimit: null }, 'e')).toEqual({ manages: true, employeeId: null });
  });
});

describe('absence request policy: the SQL filter agrees with the check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('for every plain employee and every request relation, the list shows exactly the rows canSee allows', async () => {
    const s = await createWorkforceTenant(t.ctx);
    const owner = (await createEmployee(t.ctx, s.tenant)).id;
    const validator = (await createEmployee(t.ctx, s.tenant)).id;
    const other = (await createEmployee(t.ctx, s.tenant)).id;
    const now = t.clock.now().toISOString();
    // One request of each relation: validated by a named employee, by "any administrator", by two named ones, of the validator itself.
    const plans: Array<{ employee: string; plan: Array<string | null> }> = [
      { employee: owner, plan: [validator] },
      { employee: owner, plan: [null] },
      { employee: owner, plan: [other, validator] },
      { employee: validator, plan: [owner] },
      { employee: other, plan: [null] },
    ];
    const records = new Map<string, AbsenceRecord>();
    for (const { employee, plan } of plans) {
      const row = ledgerRow(s.tenant, employee, null, now, {
        type: 'illness',
        period: { start: '2026-05-11', end: '2026-05-11', startsHalfDay: false, endsHalfDay: false },
        amounts: { requestedTime: { '2026-05-11': 28800 }, workingDays: 1, totalSeconds: 28800, workshiftSecondsPerDay: 28800 },
        contract: undefined,
        plan,
      });
      await insertAbsenceRequests(t.ctx.db, [row]);
      await insertValidators(t.ctx.db, validatorEntries(s.tenant, row.id, plan));
      records.set(row.id, { employee_id: employee, validators: plan.map((id) => ({ employee_id: id, status: 'pending' })) });
    }
    for (const employeeId of [owner, validator, other]) {
      const actor: AbsenceActor = { manages: false, employeeId };
      const listed = await listAbsenceRequests(t.ctx.db, s.tenant, { visibleTo: employeeId }, [{ field: 'start', direction: 'asc' }], {
        page: 1,
        perPage: 100,
        offset: 0,
      });
      const allowed = [...records].filter(([, record]) => canSee(actor, record)).map(([id]) => id);
      expect(listed.rows.map((row) => row.id).sort()).toEqual(allowed.sort());
      expect(allowed.length).toBeGreaterThan(0);
    }
  });
});
