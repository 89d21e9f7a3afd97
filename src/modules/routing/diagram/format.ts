import { ClientError } from '../../../platform/errors.js';
import type { DiagramFormat } from './diagram.service.js';
import { DIAGRAM_MEDIA_TYPES } from './diagram.schemas.js';

/** How much an Accept header wants a media type: the q of its most specific matching range, 0 when none matches. */
function quality(accept: string, media: string): number {
  const [type, subtype] = media.split('/');
  let best = { specificity: -1, q: 0 };
  for (const entry of accept.split(',')) {
    const [range, ...params] = entry.trim().toLowerCase().split(';');
    const [rangeType, rangeSubtype] = range.trim().split('/');
    const specificity = rangeType === type && rangeSubtype === subtype ? 2 : rangeType === type && rangeSubtype === '*' ? 1 : range.trim() === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    best = { specificity, q: q === undefined ? 1 : Number(q) };
  }
  return best.q;
}

/**
 * The format of the answer: `format` when given (406 when the Accept header rules out its media
 * type), else the one the Accept header prefers, SVG on a tie or without the header; 406 when it
 * admits neither.
 */
export function diagramFormat(format: DiagramFormat | undefined, accept: string | undefined): DiagramFormat {
  if (!accept) return format ?? 'svg';
  const svg = quality(accept, DIAGRAM_MEDIA_TYPES.svg);
  const mermaid = quality(accept, DIAGRAM_MEDIA_TYPES.mermaid);
  if (format) {
    if ((format === 'svg' ? svg : mermaid) > 0) return format;
    throw new ClientError(406, `Not Acceptable: format=${format} answers ${DIAGRAM_MEDIA_TYPES[format]}, which the Accept header rules out.`);
  }
  if (svg === 0 && mermaid === 0)
    throw new ClientError(406, `Not Acceptable: this endpoint answers ${DIAGRAM_MEDIA_TYPES.svg} or ${DIAGRAM_MEDIA_TYPES.mermaid}.`);
  return mermaid > svg ? 'mermaid' : 'svg';
}

/** The answer's Content-Type. */
export const contentTypeOf = (format: DiagramFormat) => `${DIAGRAM_MEDIA_TYPES[format]}; charset=utf-8`;
