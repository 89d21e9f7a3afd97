import { DateTime } from 'luxon';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { publicHolidays, tenantHolidays } from '../../workforce/index.js';
import type { CallFlowNode } from '../call-flows/call-flow-nodes.js';

type TimeCondition = Extract<CallFlowNode, { type: 'time_condition' }>;
type TenantDays = Awaited<ReturnType<typeof tenantHolidays>>;

/** The tenant's own holidays (for every company) on the local day: what a time condition with tenant holidays reads. */
export function tenantHolidaysOn(db: Kysely<DB>, tenant: Tenant, local: LocalInstant): Promise<TenantDays> {
  return tenantHolidays(db, tenant, null, local.date, local.date);
}
export type Branch = 'open' | 'closed' | 'holiday';

const WEEKDAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The instant as the PBX sees it: its date, ISO weekday and wall-clock time. */
export interface LocalInstant {
  date: string;
  weekday: number;
  time: string;
  label: string;
}

function computeLocalInstant(at: Date, zone: string): LocalInstant {
  const local = DateTime.fromJSDate(at, { zone });
  return Object.freeze({
    date: local.toISODate()!,
    weekday: local.weekday,
    time: local.toFormat('HH:mm'),
    label: `${local.toFormat('cccc d LLLL yyyy, HH:mm')} (${zone})`,
  });
}

const MINUTE_MS = 60_000;
/** Each zone's last minute asked for (one entry per zone, so bounded by the zones in use). */
const lastMinute = new Map<string, { minute: number; instant: LocalInstant }>();

/**
 * The instant as the PBX sees it. It names the minute only, so it is the same for every instant
 * of one UTC minute when the zone's offset is a whole number of minutes all through that minute:
 * luxon's zone work then runs once per zone and minute. A minute where the offset changes or has
 * seconds (Liberia until 1972, local mean times of the past) is computed for each instant.
 */
export function localInstant(at: Date, zone: string): LocalInstant {
  const minute = Math.floor(at.getTime() / MINUTE_MS);
  const known = lastMinute.get(zone);
  if (known && known.minute === minute) return known.instant;
  const instant = computeLocalInstant(at, zone);
  const start = DateTime.fromMillis(minute * MINUTE_MS, { zone });
  const end = DateTime.fromMillis(minute * MINUTE_MS + MINUTE_MS - 1, { zone });
  if (start.isValid && Number.isInteger(start.offset) && start.offset === end.offset) lastMinute.set(zone, { minute, instant });
  return instant;
}

/**
 * Which branch a time condition takes at an instant, and why: a holiday (public holidays of the
 * node's country, the tenant's own; a half-day one from the PBX's half-day split on) first,
 * then the open hours.
 */
export async function evaluateTimeCondition(
  node: TimeCondition,
  local: LocalInstant,
  halfDaySplit: string,
  ownHolidays: () => Promise<TenantDays>,
): Promise<{ branch: Branch; reason: string }> {
  const days = [
    ...(node.public_holidays_country ? await publicHolidays(node.public_holidays_country, null, local.date, local.date) : []),
    ...(node.tenant_holidays !== false ? await ownHolidays() : []),
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
