// Layout of a skill's workflow as a graph: each step in the column of its longest chain of
// `after` dependencies, so every arrow points right; steps of a column stacked in document order.

export interface StepNode {
  id: string;
  after: string[];
}

export interface PlacedNode {
  id: string;
  column: number;
  row: number;
  x: number;
  y: number;
}

export interface Edge {
  from: string;
  to: string;
}

export interface Layout {
  nodes: PlacedNode[];
  edges: Edge[];
  width: number;
  height: number;
}

export const NODE_WIDTH = 180;
export const NODE_HEIGHT = 64;
const COLUMN_GAP = 70;
const ROW_GAP = 28;
const MARGIN = 16;

/** Columns by longest path from a step without dependencies; throws on a cycle or an unknown step. */
export function columns(steps: StepNode[]): Map<string, number> {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const column = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (id: string): number => {
    const known = column.get(id);
    if (known !== undefined) return known;
    const step = byId.get(id);
    if (!step) throw new Error(`unknown step "${id}"`);
    if (visiting.has(id)) throw new Error(`the steps form a cycle through "${id}"`);
    visiting.add(id);
    const value = step.after.length === 0 ? 0 : Math.max(...step.after.map(visit)) + 1;
    visiting.delete(id);
    column.set(id, value);
    return value;
  };
  steps.forEach((s) => visit(s.id));
  return column;
}

export function layout(steps: StepNode[]): Layout {
  const column = columns(steps);
  const rowsUsed = new Map<number, number>();
  const nodes = steps.map((step) => {
    const c = column.get(step.id)!;
    const row = rowsUsed.get(c) ?? 0;
    rowsUsed.set(c, row + 1);
    return {
      id: step.id, column: c, row,
      x: MARGIN + c * (NODE_WIDTH + COLUMN_GAP),
      y: MARGIN + row * (NODE_HEIGHT + ROW_GAP),
    };
  });
  const edges = steps.flatMap((step) => step.after.map((from) => ({ from, to: step.id })));
  const columnsCount = Math.max(0, ...column.values()) + 1;
  const rowsCount = Math.max(0, ...rowsUsed.values());
  return {
    nodes, edges,
    width: MARGIN * 2 + columnsCount * NODE_WIDTH + (columnsCount - 1) * COLUMN_GAP,
    height: MARGIN * 2 + rowsCount * NODE_HEIGHT + Math.max(0, rowsCount - 1) * ROW_GAP,
  };
}
