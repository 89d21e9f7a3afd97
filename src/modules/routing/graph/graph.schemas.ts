import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../http/schema.js';

export const PROBLEM_CODES = [
  'dangling',
  'wrong_sound_type',
  'cycle',
  'unreachable',
  'no_closed_branch',
  'no_one_to_ring',
  'empty_queue',
  'missing_default_step',
] as const;

export const RoutingProblemSchema = Type.Object({
  code: StringEnum(PROBLEM_CODES),
  severity: StringEnum(['error', 'warning'] as const, {
    description:
      'error: a routing write that brings it is refused with 422. warning: the PBX copes (an IVR without its default step hangs up on timeout), but it is likely not meant.',
  }),
  path: Type.String({
    description: 'Where: call_flows/{id}/nodes/{key}/{field}, ivrs/{id}/steps/{option}/target_id, queues/{id}/overflow, phone_numbers/{id}/destination_id, ...',
  }),
  message: Type.String(),
});

export const RoutingValidation = Type.Object(
  {
    valid: Type.Boolean({ description: 'No problem of severity error.' }),
    problems: Type.Array(RoutingProblemSchema),
  },
  {
    $id: 'RoutingValidation',
    examples: [
      {
        valid: false,
        problems: [
          {
            code: 'empty_queue',
            severity: 'warning',
            path: 'queues.c7be49b6-48a9-4c39-8457-21f3eca4eacc.members',
            message: 'Queue "Support" has no members: its callers wait until they give up or overflow.',
          },
        ],
      },
    ],
  },
);
