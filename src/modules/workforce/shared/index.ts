/**
 * What every workforce sub-domain shares: calendar days (zone-less `YYYY-MM-DD`, and a tenant's
 * today in its time zone) and the path and query schemas of the workforce's routes. It imports
 * nothing of the workforce, so every sub-domain may stand on it.
 */
export { addDays, addMonths, dayAsDateTime, dayOfYear, daysInclusive, eachDay, isoWeekday, todayIn, yearOf, type CalendarDay } from './days.js';
export { Day, EmployeeParams, HourMinute, PbxParams, TrashedFilter } from './schemas.js';
