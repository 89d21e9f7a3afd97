import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import type { Database } from '../../../../db/database.js';
import { buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import { openTestDatabase } from '../../../../../test/database.js';
import { createUser } from '../../../../../test/factories.js';
import { createEmployee } from '../../../../../test/workforce-factories.js';
import { absenceFixtures, type AbsenceView } from '../../../../../test/absence-fixtures.js';

/** Every statement the database answers while recording: its kind and the first table it names (for a readable failure). */
function statementLog(): KyselyPlugin & { statements: string[]; recording: boolean } {
  const named = new WeakMap<object, string>();
  return {
    statements: [],
    recording: false,
    transformQuery({ node, queryId }) {
      named.set(queryId, `${node.kind} ${/"name":"(\w+)"/.exec(JSON.stringify(node))?.[1] ?? ''}`);
      return node;
    },
    async transformResult({ result, queryId }) {
      if (this.recording) this.statements.push(named.get(queryId) ?? 'precompiled');
      return result;
    },
  };
}

const NOW = '2026-03-15T09:00:00.000Z';
const WEEK = { type: 'legal', start: '2026-05-11', end: '2026-05-15' };

describe('the statements of a move', () => {
  let t: TestApp;
  let database: Database;
  const log = statementLog();
  beforeAll(async () => {
    database = await openTestDatabase();
    t = await buildTestApp({
      database: { ...database, db: database.db.withPlugin(log) },
      clock: new ManualClock(NOW),
      env: { RATE_LIMIT_PER_MINUTE: '10000' },
    });
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });
  const { call, timeTenant, ask, oneUrl, setValidators, read } = absenceFixtures(() => t);

  it('a validator approves in 12 statements or fewer (PostgreSQL: its row lock is a statement of its own, its live event one statement less), answering what a read answers', async () => {
    const s = await timeTenant({ balances: { leave_balance: 26 } });
    const user = await createUser(t.ctx, { tenant: s.tenant });
    const head = { ...user, employeeId: (await createEmployee(t.ctx, s.tenant, { userId: user.id })).id };
    await setValidators(s, [head.employeeId]);
    const row = await ask(s, WEEK);
    await read(s, row.id, head.token); // the validator's token is resolved (and cached) before counting
    log.statements.length = 0;
    log.recording = true;
    const response = await call('POST', oneUrl(s, row.id, 'approve'), head.token);
    log.recording = false;
    expect(response.statusCode, response.body).toBe(200);
    // Before: 20 (21 on PostgreSQL): the caller twice, the row three times, its entries four times, the settings twice.
    // Then 12 (13), and the decision's live event added its audience's users and the event itself (the tenant's counter
    // and the row: one statement on PostgreSQL, two on SQLite): 15. The answer's next_availability reads the work calendar
    // in two statements (the contracts with their companies and holidays, the assignments with their shifts), not five.
    expect(log.statements.length, log.statements.join('\n')).toBeLessThanOrEqual(12);
    // The answer is built from what the move wrote, and reads as the row does now.
    const answered = response.json<{ data: AbsenceView }>().data;
    expect(answered).toMatchObject({ status: 'accepted', accepted_by: [{ employee_id: head.employeeId, status: 'accepted' }] });
    expect(answered).toEqual(await read(s, row.id, head.token));
  });
});
