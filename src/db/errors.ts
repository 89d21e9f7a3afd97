/** Recognises a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The constraint or column named in a unique violation, to map it to the right field. */
export function uniqueViolationTarget(error: unknown): string {
  const e = error as { constraint?: string; message?: string };
  return e?.constraint ?? e?.message ?? '';
}
