import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../../http/schema.js';
import { RoutingProblemSchema } from '../graph/graph.schemas.js';
import { DIAGRAM_FORMATS, SimulationDiagram } from '../diagram/diagram.schemas.js';

export const SIMULATION_RESULTS = ['answered', 'voicemail', 'forwarded', 'hung_up', 'loop'] as const;
export const STEP_KINDS = [
  'number',
  'contact',
  'call_flow',
  'time_condition',
  'ring',
  'play',
  'ivr',
  'queue',
  'voicemail',
  'forward',
  'hangup',
  'loop',
] as const;
const KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;

/** What the caller changes, as call-routing.service.ts routes it (the operation's description says the same). */
const CALLER_ROUTING =
  "The calling number, in any dialable form; it can change the route. A caller who is one of the PBX's global contacts is routed as the PBX routes them, before the number's own destination: by the contact's handling strategy (a call flow, an extension or a user) when it is not `default`, else by the default external call flow of the contact's group (a step `contact` says which). A contact whose calls go to a SIP device (which the simulator does not ring), an unknown caller or none follows the number's own routing.";

export const SimulateBody = Type.Object(
  {
    number: Type.String({ minLength: 1, maxLength: 24, description: 'The dialled number: one of the PBX’s phone numbers, in any dialable form.' }),
    caller: Type.Optional(Nullable(Type.String({ maxLength: 32, description: CALLER_ROUTING }))),
    at: Type.Optional(DateTime({ description: 'The instant of the call; now when left out. Time conditions read it in the PBX time zone.' })),
    keys: Type.Optional(
      Type.Array(Nullable(StringEnum(KEYS)), {
        maxItems: 20,
        description: 'The key the caller presses at each IVR menu played, in order; null (or running out of keys) lets the menu time out.',
      }),
    ),
    answer: Type.Optional(
      StringEnum(['first_available', 'nobody'] as const, {
        default: 'first_available',
        description: 'first_available: the first user or member who can take calls answers; nobody: every ring times out and queues wait to their limit.',
      }),
    ),
    queue_full: Type.Optional(Type.Boolean({ default: false, description: 'Treat queues with a max_callers limit as full.' })),
    diagram: Type.Optional(
      StringEnum(DIAGRAM_FORMATS, {
        description:
          "Adds `diagram` to the answer: the number's route as a picture (as `GET /phone-numbers/{phoneNumber}/route-diagram` draws it), the simulated call's path highlighted; mermaid (text) or svg. Left out, the answer has no `diagram`.",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ number: '+35227123400', caller: '+352691000111', at: '2026-11-24T09:00:00Z', keys: ['9', '2', '2'] }] },
);

export const SimulationStep = Type.Object({
  kind: StringEnum(STEP_KINDS),
  type: Nullable(
    Type.String({ description: 'What the step acts on: phone_number, call_flow, ivr, queue, user, extension, sound_file, ring_group, external.' }),
  ),
  id: Nullable(Type.String()),
  name: Nullable(Type.String()),
  node_key: Nullable(Type.String({ description: 'The call-flow node, when the step is one.' })),
  outcome: Type.String({ description: 'What happened: entered, open, closed, holiday, answered, no_answer, key_1, timeout, overflow, played, ...' }),
  reason: Type.String(),
  language: Nullable(Type.String({ description: 'Announcement language in effect (null = Auto).' })),
});

export const Simulation = Type.Object(
  {
    number: Type.String({ description: 'The dialled number in E.164.' }),
    caller: Nullable(Type.String()),
    at: DateTime(),
    local_time: Type.String({ description: 'The instant in the PBX time zone.' }),
    result: StringEnum(SIMULATION_RESULTS),
    answered_by: Nullable(Type.Object({ type: Type.String(), id: Type.String(), name: Type.String() })),
    steps: Type.Array(SimulationStep),
    problems: Type.Array(RoutingProblemSchema, { description: 'Problems of the routing graph met on the way.' }),
    diagram: Type.Optional(SimulationDiagram),
  },
  {
    $id: 'RouteSimulation',
    examples: [
      {
        number: '+35227123400',
        caller: '+352691000111',
        at: '2026-11-24T09:00:00.000Z',
        local_time: 'Tuesday 24 November 2026, 10:00 (Europe/Luxembourg)',
        result: 'answered',
        answered_by: { type: 'user', id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc', name: 'Anna Schmit' },
        steps: [
          {
            kind: 'number',
            type: 'phone_number',
            id: '43d765c7-c692-4b64-b17f-0021be4965c7',
            name: '+35227123400',
            node_key: null,
            outcome: 'routed',
            reason: '+35227123400 (Main line) is dialled by +352691000111; it routes to a call flow.',
            language: null,
          },
          {
            kind: 'call_flow',
            type: 'call_flow',
            id: '73f8cb2c-51b4-4e31-b6bb-4296620d00d4',
            name: 'Main number',
            node_key: 'hours',
            outcome: 'entered',
            reason: 'Reached from phone number +35227123400; enters at node "hours".',
            language: null,
          },
          {
            kind: 'time_condition',
            type: 'call_flow',
            id: '73f8cb2c-51b4-4e31-b6bb-4296620d00d4',
            name: 'Main number',
            node_key: 'hours',
            outcome: 'open',
            reason: 'Tuesday 24 November 2026, 10:00 (Europe/Luxembourg) is within the open hours Mon–Fri 08:00–18:00.',
            language: null,
          },
          {
            kind: 'ivr',
            type: 'ivr',
            id: 'e4f90702-01c5-47ef-b715-71f55b2d49bd',
            name: 'Main menu',
            node_key: null,
            outcome: 'key_2',
            reason: 'Menu played (from node "menu" of call flow "Main number"); the caller presses 2 (Support).',
            language: null,
          },
          {
            kind: 'call_flow',
            type: 'call_flow',
            id: '22aeb4e7-da85-4591-ae3e-48b5151781a5',
            name: 'Support',
            node_key: 'queue',
            outcome: 'entered',
            reason: 'Reached from key 2 of IVR "Main menu"; enters at node "queue".',
            language: null,
          },
          {
            kind: 'queue',
            type: 'queue',
            id: 'c7be49b6-48a9-4c39-8457-21f3eca4eacc',
            name: 'Support',
            node_key: null,
            outcome: 'answered',
            reason:
              'Waits in the queue (from node "queue" of call flow "Support"). Strategy least_recent picks Anna Schmit (lowest penalty first), who answers.',
            language: null,
          },
        ],
        problems: [],
      },
    ],
  },
);
