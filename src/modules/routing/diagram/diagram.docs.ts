import type { OperationDocs } from '../../../http/resource-routes.js';
import { exampleMermaid } from './diagram.example.js';

const FORMATS =
  'Answers SVG rendered by the server (`format=svg` or `Accept: image/svg+xml`, the default) or Mermaid text (`format=mermaid` or `Accept: text/vnd.mermaid`), which Markdown on the forge renders as the same picture. ' +
  'It is drawn from the routing the simulator follows and validation checks: each call flow as a frame of its nodes, time conditions with their open, closed and holiday branches, IVR keys and the default step, queues with their members and overflow, the users and extensions rung and their devices (SIP devices, twinnings), voicemail, forwards and hang-ups. Deleted or missing targets are drawn as such. SVG is drawn up to 300 boxes (422 on `format` beyond: ask for Mermaid, or for the picture of one call flow or IVR).';

const EXAMPLE = `For example, a number into a call flow whose time condition sends open hours to a menu (1 sales, no key the support queue) and the rest to voicemail, as \`format=mermaid\` answers it:\n\n\`\`\`mermaid\n${exampleMermaid()}\`\`\``;

/** The OpenAPI text of diagram.routes.ts, by operation id. */
export const DIAGRAM_DOCS = {
  getPhoneNumberRouteDiagram: {
    summary: "Picture of a phone number's route",
    description: `Where a call to the number goes, as a picture: the number, then everything its destination leads to. ${FORMATS} An integration key needs both the \`phone-numbers\` and the \`call-routing\` scope. 404 for a number that is deleted, unknown or another PBX's.\n\n${EXAMPLE}`,
  },
  getCallFlowDiagram: {
    summary: 'Picture of a call flow',
    description: `The call flow's nodes and everything they lead to. ${FORMATS} 404 for a flow that is deleted, unknown or another PBX's.`,
  },
  getIvrDiagram: {
    summary: 'Picture of an IVR menu',
    description: `The menu's keys, its default step, and everything they lead to. ${FORMATS} 404 for a menu that is deleted, unknown or another PBX's.`,
  },
} satisfies OperationDocs;
