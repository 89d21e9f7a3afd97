import type { FastifyReply } from 'fastify';

export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The one `Range: bytes=` range asked of `size` bytes (`a-b`, `a-`, `-n`, blanks around the
 * numbers and the dash tolerated): the range, 'unsatisfiable' (416), or null to send everything
 * (no header, another unit, several ranges: a server may answer those with the whole file).
 * Sound-file and call-recording downloads both read their Range header through it.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const value = header?.trim();
  if (!value?.startsWith('bytes=') || value.includes(',')) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)$/.exec(value);
  if (!match || (match[1] === '' && match[2] === '')) return 'unsatisfiable';
  const [, first, last] = match;
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size || (last !== '' && Number(last) < start)) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** An audio answer's content in the OpenAPI document. */
const AUDIO = { 'audio/*': { schema: { type: 'string', format: 'binary' } } };

/** The answers of an audio download with Range support: the whole file, a range (206), or 416. */
export const rangedAudioResponses = (whole: string) => ({
  200: { description: whole, content: AUDIO },
  206: { description: 'The requested byte range (`Content-Range` header).', content: AUDIO },
  416: { description: 'Range not satisfiable; `Content-Range: bytes */<size>`.', $ref: 'MessageError#' },
});

/** Headers a Range-aware answer needs: `Accept-Ranges`, the length, and for a range 206 with `Content-Range`. */
export function writeRangeHeaders(reply: FastifyReply, size: number, range: ByteRange | null | undefined): void {
  reply.header('accept-ranges', 'bytes');
  if (!range) {
    reply.header('content-length', String(size));
    return;
  }
  reply.code(206);
  reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  reply.header('content-length', String(range.end - range.start + 1));
}
