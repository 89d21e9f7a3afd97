import { describe, expect, it } from 'vitest';
import { mapRow, type PhoneCache } from './row-mapper.js';
import type { ImportMappingT } from './contact-imports.schemas.js';

const mappings: ImportMappingT[] = [
  { field: 'name1', column: 0, subfields: [] },
  { field: 'phone_number', column: 1, subfields: [{ name: 'type', value: 'mobile' }] },
  { field: 'phone_number', column: 2, subfields: [] },
];

describe('mapRow with a phone cache', () => {
  it('maps a row as without the cache, and parses each distinct number once', () => {
    const phones: PhoneCache = new Map();
    const rows = [
      ['Ann', '+352 691 123 456', '26 123 456'],
      ['Bob', '+352 691 123 456', 'not a number'],
      ['Cid', '00352 691123456', 'not a number'],
    ];
    for (const cells of rows) expect(mapRow(cells, mappings, 'LU', new Map(), phones)).toEqual(mapRow(cells, mappings, 'LU', new Map()));
    expect([...phones]).toEqual([
      ['+352 691 123 456', '+352691123456'],
      ['26 123 456', '+35226123456'],
      ['not a number', null],
      ['00352 691123456', '+352691123456'],
    ]);
    // An invalid number read from the cache is still reported for its row.
    expect(mapRow(rows[2], mappings, 'LU', new Map(), phones).errors.get('phone_number')).toEqual([
      'The phone number "not a number" is not a valid phone number.',
    ]);
  });
});
