import { Type } from '@sinclair/typebox';
import { StringEnum, Uuid } from '../../../http/schema.js';
import { exampleMermaid } from './diagram.example.js';

export const DIAGRAM_FORMATS = ['mermaid', 'svg'] as const;

/** The media type of each format. Mermaid has no registered one; `text/vnd.mermaid` is the one in use. */
export const DIAGRAM_MEDIA_TYPES = { svg: 'image/svg+xml', mermaid: 'text/vnd.mermaid' } as const;

/** The number whose route is drawn (the directory's phone number id). */
export const PhoneNumberParams = Type.Object({ phoneNumber: Uuid() });

export const DiagramQuery = Type.Object(
  {
    format: Type.Optional(
      StringEnum(DIAGRAM_FORMATS, {
        description:
          'svg: an SVG image rendered by the server (Graphviz); mermaid: Mermaid flowchart text, which Markdown on the forge renders. Without it the Accept header chooses (`image/svg+xml` or `text/vnd.mermaid`), and SVG when it admits both.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** What every diagram route answers: the picture in either format, or 406 when the Accept header rules out the one asked for. */
export const DIAGRAM_RESPONSES = {
  200: {
    description: 'The picture: SVG (`image/svg+xml`) or Mermaid (`text/vnd.mermaid; charset=utf-8`), by `format` or the Accept header.',
    content: {
      [DIAGRAM_MEDIA_TYPES.svg]: { schema: { type: 'string', description: 'An SVG document.' } },
      [DIAGRAM_MEDIA_TYPES.mermaid]: { schema: { type: 'string', description: 'A Mermaid flowchart.' }, example: exampleMermaid() },
    },
  },
  406: { description: 'The Accept header rules out the format asked for, or both formats (`{message}`).', $ref: 'MessageError#' },
};

/** The simulator's optional picture: the number's route with the simulated call's path highlighted. */
export const SimulationDiagram = Type.Object({
  format: StringEnum(DIAGRAM_FORMATS),
  media_type: StringEnum([DIAGRAM_MEDIA_TYPES.mermaid, DIAGRAM_MEDIA_TYPES.svg] as const),
  content: Type.String({ description: 'The Mermaid text or the SVG document; the path is drawn thick and orange.' }),
});
