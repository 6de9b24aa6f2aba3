/**
 * A page layout as a plain form (no script): every field is named by its path in pages.set_layout's input
 * ("layout.sections.2.heading"), so a refusal's field paths point at the inputs that caused them. Moving,
 * removing and adding a section re-render the form from what was posted; only saving calls the tool.
 */

/** A section as the form holds it: strings as typed, nested objects (image, cta) and column lists. */
export type FormNode = { [field: string]: string | FormNode | FormNode[] };

export const SECTION_TYPES = ['hero', 'text', 'image', 'cta', 'columns'] as const;
export const COLUMN_TYPES = ['hero', 'text', 'image', 'cta'] as const;
const MIN_COLUMNS = 2;

const PREFIX = 'layout.';

/** The sections the form posted, in order, with every value as typed (empty ones included). */
export function sectionsFromForm(body: Record<string, string>): FormNode[] {
  const root: FormNode = {};
  for (const [name, value] of Object.entries(body)) {
    if (!name.startsWith(PREFIX)) continue;
    assign(root, name.slice(PREFIX.length).split('.'), value);
  }
  return listAt(root, 'sections');
}

function assign(node: FormNode, path: string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined || head === '' || head === '__proto__') return;
  if (rest.length === 0) {
    node[head] = value;
    return;
  }
  const child = node[head];
  const next: FormNode = typeof child === 'object' && !Array.isArray(child) ? child : {};
  node[head] = next;
  assign(next, rest, value);
}

/** Numbered children ("0", "1", …) as a list in their number order; the form always numbers from 0 up. */
function listAt(node: FormNode, field: string): FormNode[] {
  const holder = node[field];
  if (typeof holder !== 'object' || Array.isArray(holder)) return [];
  return Object.entries(holder)
    .filter((entry): entry is [string, FormNode] => /^\d+$/.test(entry[0]) && typeof entry[1] === 'object' && !Array.isArray(entry[1]))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, section]) => ({ ...section, ...(section.type === 'columns' ? { columns: listAt(section, 'columns') } : {}) }));
}

/** A stored layout's sections in the form's shape. */
export function sectionsFromLayout(sections: readonly object[]): FormNode[] {
  return sections.map((section) => toFormNode(section));
}

function toFormNode(value: object): FormNode {
  const node: FormNode = {};
  for (const [field, inner] of Object.entries(value)) {
    if (Array.isArray(inner)) node[field] = inner.map((item: object) => toFormNode(item));
    else if (typeof inner === 'object' && inner !== null) node[field] = toFormNode(inner);
    else if (inner !== undefined && inner !== null) node[field] = String(inner);
  }
  return node;
}

/**
 * The sections as pages.set_layout takes them: empty text and nested objects left empty (a hero without an
 * image or a button) are left out, as the tool treats them as absent. Anything else wrong is the tool's to say.
 */
export function layoutInput(sections: readonly FormNode[]): { version: 1; sections: unknown[] } {
  return { version: 1, sections: sections.map(compact) };
}

function compact(node: FormNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(node)) {
    if (Array.isArray(value)) out[field] = value.map(compact);
    else if (typeof value === 'object') {
      const inner = compact(value);
      if (Object.keys(inner).length > 0) out[field] = inner;
    } else if (value.trim() !== '') out[field] = field === 'href' || field === 'url' ? value.trim() : value;
  }
  return out;
}

/** What a button of the form asks for: save, remove the layout, or a change to the form itself. */
export type LayoutOp =
  | { kind: 'save' }
  | { kind: 'clear' }
  | { kind: 'up' | 'down' | 'remove'; list: string; index: number }
  | { kind: 'add'; list: string; type: string };

/** A list is "sections" or "sections.<n>.columns"; the button's value names the list and the position. */
export function parseOp(body: Record<string, string>): LayoutOp | undefined {
  const op = body.op ?? 'save';
  if (op === 'save' || op === 'clear') return { kind: op };
  const move = /^(up|down|remove):(sections(?:\.\d+\.columns)?)\.(\d+)$/.exec(op);
  if (move) return { kind: move[1] as 'up' | 'down' | 'remove', list: move[2] ?? '', index: Number(move[3]) };
  const add = /^add:(sections(?:\.\d+\.columns)?)$/.exec(op);
  if (add) return { kind: 'add', list: add[1] ?? '', type: body[`new:${add[1] ?? ''}`] ?? '' };
  return undefined;
}

/** The form's sections after a move, removal or addition; unknown lists and types leave them as they were. */
export function applyOp(sections: FormNode[], op: Exclude<LayoutOp, { kind: 'save' | 'clear' }>): FormNode[] {
  const copy = structuredClone(sections);
  const list = op.list === 'sections' ? copy : columnsOf(copy, op.list);
  if (!list) return copy;
  const allowed: readonly string[] = op.list === 'sections' ? SECTION_TYPES : COLUMN_TYPES;
  switch (op.kind) {
    case 'add':
      if (allowed.includes(op.type)) list.push(newSection(op.type));
      break;
    case 'remove':
      list.splice(op.index, 1);
      break;
    case 'up':
    case 'down': {
      const to = op.kind === 'up' ? op.index - 1 : op.index + 1;
      const [moved] = to >= 0 && to < list.length ? list.splice(op.index, 1) : [];
      if (moved) list.splice(to, 0, moved);
      break;
    }
  }
  return copy;
}

function columnsOf(sections: FormNode[], list: string): FormNode[] | undefined {
  const index = Number(/^sections\.(\d+)\.columns$/.exec(list)?.[1]);
  const columns = sections[index]?.columns;
  return Array.isArray(columns) ? columns : undefined;
}

function newSection(type: string): FormNode {
  if (type === 'columns') return { type, columns: Array.from({ length: MIN_COLUMNS }, () => ({ type: 'text' })) };
  return { type };
}
