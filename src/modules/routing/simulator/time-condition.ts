import { DateTime } from 'luxon';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { publicHolidays, tenantHolidays } from '../../workforce/index.js';
import type { CallFlowNode } from '../call-flows/call-flow-nodes.js';

type TimeCondition = Extract<CallFlowNode, { type: 'time_condition' }>;
export type Branch = 'open' | 'closed' | 'holiday';

const WEEKDAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The instant as the PBX sees it: its date, ISO weekday and wall-clock time. */
export interface LocalInstant {
  date: string;
  weekday: number;
  time: string;
  label: string;
}

export function localInstant(at: Date, zone: string): LocalInstant {
  const local = DateTime.fromJSDate(at, { zone });
  return { date: local.toISODate()!, weekday: local.weekday, time: local.toFormat('HH:mm'), label: `${local.toFormat('cccc d LLLL yyyy, HH:mm')} (${zone})` };
}

/**
 * Which branch a time condition takes at an instant, and why: a holiday (public holidays of the
 * node's country, the tenant's own; a half-day one from the PBX's half-day split on) first,
 * then the open hours.
 */
export async function evaluateTimeCondition(
  db: Kysely<DB>,
  tenant: Tenant,
  node: TimeCondition,
  local: LocalInstant,
  halfDaySplit: string,
): Promise<{ branch: Branch; reason: string }> {
  const days = [
    ...(node.public_holidays_country ? await publicHolidays(node.public_holidays_country, null, local.date, local.date) : []),
    ...(node.tenant_holidays !== false ? await tenantHolidays(db, tenant, null, local.date, local.date) : []),
  ];
  const holiday = days.find((day) => !day.half_day) ?? days.find((day) => day.half_day && local.time >= halfDaySplit);
  if (holiday) {
    const part = holiday.half_day ? ` (half day, from ${halfDaySplit})` : '';
    const source = holiday.source === 'public' ? `public holiday in ${node.public_holidays_country}` : 'holiday of the PBX';
    return {
      branch: node.holiday ? 'holiday' : 'closed',
      reason: `${local.label} is ${holiday.name}, a ${source}${part}${node.holiday ? '' : '; no holiday branch, so closed'}.`,
    };
  }
  const range = node.open_hours.find((r) => r.days.includes(local.weekday) && local.time >= r.from && local.time < r.to);
  if (range) return { branch: 'open', reason: `${local.label} is within the open hours ${describe(range)}.` };
  return { branch: 'closed', reason: `${local.label} is outside the open hours ${node.open_hours.map(describe).join(', ')}.` };
}

function describe(range: { days: number[]; from: string; to: string }): string {
  const days = [...range.days].sort((a, b) => a - b);
  const consecutive = days.every((d, i) => i === 0 || d === days[i - 1] + 1);
  const dayText = consecutive && days.length > 2 ? `${WEEKDAYS[days[0]]}–${WEEKDAYS[days[days.length - 1]]}` : days.map((d) => WEEKDAYS[d]).join(', ');
  return `${dayText} ${range.from}–${range.to}`;
}
