import { describe, expect, it } from 'vitest';
import { columns, layout, NODE_WIDTH } from './graph';

describe('skill graph layout', () => {
  it('puts each step right of every step it runs after', () => {
    const steps = [
      { id: 'search', after: [] }, { id: 'fetch', after: [] },
      { id: 'rank', after: ['search', 'fetch'] }, { id: 'summary', after: ['rank', 'search'] },
    ];
    const placed = layout(steps);
    const byId = new Map(placed.nodes.map((n) => [n.id, n]));
    for (const edge of placed.edges) expect(byId.get(edge.from)!.x).toBeLessThan(byId.get(edge.to)!.x);
    expect(placed.edges).toHaveLength(4);
    expect(byId.get('search')!.row).toBe(0);
    expect(byId.get('fetch')!.row).toBe(1);
    expect(byId.get('summary')!.column).toBe(2);
  });

  it('takes the longest chain as a step column', () => {
    const c = columns([{ id: 'a', after: [] }, { id: 'b', after: ['a'] }, { id: 'c', after: ['a', 'b'] }]);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([0, 1, 2]);
  });

  it('sizes the drawing to its columns and rows', () => {
    const placed = layout([{ id: 'a', after: [] }, { id: 'b', after: [] }, { id: 'c', after: ['a'] }]);
    expect(placed.width).toBeGreaterThan(2 * NODE_WIDTH);
    expect(placed.height).toBeGreaterThan(placed.nodes.find((n) => n.id === 'b')!.y);
  });

  it('refuses cycles and unknown steps rather than looping', () => {
    expect(() => columns([{ id: 'a', after: ['b'] }, { id: 'b', after: ['a'] }])).toThrow(/cycle/);
    expect(() => columns([{ id: 'a', after: ['ghost'] }])).toThrow(/unknown/);
  });
});
