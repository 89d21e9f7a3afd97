import { describe, expect, it } from 'vitest';
import { paginate } from './pagination.js';
import { parseInclude } from './include.js';
import { pageOf, parseSort } from './list-query.js';

describe('paginate', () => {
  const path = 'http://pbx.test/api/v1/things';

  it('builds the Laravel envelope and keeps the query on every link', () => {
    const page = pageOf(2, 10);
    const body = paginate(
      Array.from({ length: 10 }, (_, i) => i),
      35,
      page,
      path,
      { page: 2, perPage: 10, search: 'a b' },
    );
    expect(body.meta).toMatchObject({ current_page: 2, from: 11, to: 20, last_page: 4, per_page: 10, total: 35, path });
    expect(body.links).toEqual({
      first: `${path}?perPage=10&search=a+b&page=1`,
      last: `${path}?perPage=10&search=a+b&page=4`,
      prev: `${path}?perPage=10&search=a+b&page=1`,
      next: `${path}?perPage=10&search=a+b&page=3`,
    });
    expect(body.meta.links.map((l) => l.label)).toEqual(['&laquo; Previous', '1', '2', '3', '4', 'Next &raquo;']);
    expect(body.meta.links.find((l) => l.active)?.label).toBe('2');
  });

  it('answers an empty page past the end with null from/to', () => {
    const body = paginate([], 3, pageOf(9), path, {});
    expect(body.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 1, total: 3 });
    expect(body.links.next).toBeNull();
  });

  it('shortens long page lists with ellipses', () => {
    const body = paginate([1], 500, pageOf(25, 10), path, {});
    expect(body.meta.links.map((l) => l.label)).toEqual([
      '&laquo; Previous',
      '1',
      '2',
      '...',
      '22',
      '23',
      '24',
      '25',
      '26',
      '27',
      '28',
      '...',
      '49',
      '50',
      'Next &raquo;',
    ]);
  });
});

describe('include and sort parsing', () => {
  it('expands dot-nested includes to their parents', () => {
    expect([...parseInclude('user.groups,sipDevice')].sort()).toEqual(['sipDevice', 'user', 'user.groups']);
    expect(parseInclude(undefined).size).toBe(0);
  });

  it('reads - as descending', () => {
    expect(parseSort('-created_at,name', [])).toEqual([
      { field: 'created_at', direction: 'desc' },
      { field: 'name', direction: 'asc' },
    ]);
  });
});
