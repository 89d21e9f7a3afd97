import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';

export interface RoutingProblem {
  code: string;
  path: string;
  message: string;
}

// FIXME(session): the real graph checks land with the call flows (this session).
export async function routingProblems(_db: Kysely<DB>, _tenant: Tenant, _now: Date): Promise<RoutingProblem[]> {
  return [];
}

export function problemsError(problems: RoutingProblem[]): ValidationFailed {
  const errors: Record<string, string[]> = {};
  for (const problem of problems) (errors[problem.path] ??= []).push(problem.message);
  return new ValidationFailed(errors, undefined, { problems });
}
