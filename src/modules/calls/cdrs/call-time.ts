const pad = (n: number) => String(n).padStart(2, '0');

/** A call-record time: UTC `YYYY-MM-DD HH:MM:SS`, as stored and shown. */
export function callTimeOf(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}
