/**
 * The rules a schedule's settings follow (pure): the daily window and its slot grid. Times are
 * wall-clock `HH:MM` in the tenant's zone; a window left open is the whole day.
 */
import { ValidationFailed } from '../../../../platform/errors.js';

export const WHOLE_DAY = { start: '00:00', end: '24:00' } as const;

export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
export const timeOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export interface Window {
  start: string;
  end: string;
  slotMinutes: number;
}

export function windowOf(schedule: { day_start_time: string | null; day_end_time: string | null; slot_duration_minutes: number }): Window {
  return { start: schedule.day_start_time ?? WHOLE_DAY.start, end: schedule.day_end_time ?? WHOLE_DAY.end, slotMinutes: schedule.slot_duration_minutes };
}

/** 422 unless both ends are given or neither, the end is after the start, and one slot fits. */
export function checkWindow(start: string | null, end: string | null, slotMinutes: number): void {
  if ((start === null) !== (end === null))
    throw ValidationFailed.field(start === null ? 'dayStartTime' : 'dayEndTime', 'dayStartTime and dayEndTime are given together, or both null.');
  const window = windowOf({ day_start_time: start, day_end_time: end, slot_duration_minutes: slotMinutes });
  if (minutesOf(window.end) <= minutesOf(window.start)) throw ValidationFailed.field('dayEndTime', 'The dayEndTime must be after dayStartTime.');
  if (minutesOf(window.end) - minutesOf(window.start) < slotMinutes)
    throw ValidationFailed.field('slotDurationMinutes', 'The daily window must hold at least one slot.');
}

/** The slots of a day: whole slots from the window's start; a remainder shorter than a slot is left out. */
export function slotsOf(window: Window): Array<{ startTime: string; endTime: string }> {
  const slots: Array<{ startTime: string; endTime: string }> = [];
  for (let at = minutesOf(window.start); at + window.slotMinutes <= minutesOf(window.end); at += window.slotMinutes)
    slots.push({ startTime: timeOf(at), endTime: timeOf(at + window.slotMinutes) });
  return slots;
}

/** The booking's end (default one slot), or 422 when the booking is off the grid or outside the window. */
export function checkBooking(window: Window, startTime: string, endTime: string | undefined): string {
  const start = minutesOf(startTime);
  const end = endTime === undefined ? start + window.slotMinutes : minutesOf(endTime);
  const first = minutesOf(window.start);
  const last = minutesOf(window.end);
  if (start < first || start >= last)
    throw ValidationFailed.field('startTime', `The startTime must be within the schedule's day, ${window.start} to ${window.end}.`);
  if ((start - first) % window.slotMinutes !== 0)
    throw ValidationFailed.field('startTime', `The startTime must start a slot: ${window.start} plus a multiple of ${window.slotMinutes} minutes.`);
  if (end <= start) throw ValidationFailed.field('endTime', 'The endTime must be after startTime.');
  if ((end - first) % window.slotMinutes !== 0)
    throw ValidationFailed.field('endTime', `The endTime must end a slot (a multiple of ${window.slotMinutes} minutes).`);
  if (end > last - ((last - first) % window.slotMinutes))
    throw ValidationFailed.field('endTime', `The endTime must be within the schedule's day, by ${window.end}.`);
  return timeOf(end);
}
