/**
 * How the tenant writes a person's name (`pbxes.name_order`): every `fullName` of the workforce
 * (employees, assignable employees, schedules, calendars) comes from `fullName` below, so a
 * tenant's choice reads the same everywhere.
 */
export const NAME_ORDERS = ['first_last', 'last_first'] as const;
export type NameOrder = (typeof NAME_ORDERS)[number];

/** "Anna Schmit" (`first_last`) or "Schmit Anna" (`last_first`); an empty part is left out. */
export function fullName(person: { first_name: string; last_name: string }, order: NameOrder): string {
  const parts = order === 'last_first' ? [person.last_name, person.first_name] : [person.first_name, person.last_name];
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}

/** The sort that lists people as the tenant writes them: by the first word of the name, then the second. */
export function nameSortColumns(order: NameOrder): Array<'first_name' | 'last_name'> {
  return order === 'last_first' ? ['last_name', 'first_name'] : ['first_name', 'last_name'];
}
