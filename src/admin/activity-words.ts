import { ORDER_STATUSES } from '../domain/order-status.ts';
import type { OrderStatus } from '../domain/order-status.ts';
import { statusWords } from './order-status-words.ts';

/**
 * Activity in an owner's words: what an entry changed, named as a person knows it (the product's name and slug,
 * the order's number and customer, the page's title), and each changed field by its label ("Price", "Image 1 alt
 * text", "Section 3 heading") instead of a column or a JSON path. Everything here reads the entry's own snapshots
 * (whole rows), so a deleted product is still named and the page needs no extra query.
 */

type Snapshot = Record<string, unknown>;

function asRecord(value: unknown): Snapshot {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Snapshot : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** An order's number as the console shows it everywhere: the first eight characters of its id. */
export function orderNumber(id: string): string {
  return id.slice(0, 8);
}

const TARGET_NOUNS: Record<string, string> = {
  product: 'Product', category: 'Category', discount: 'Discount code', page: 'Page', service: 'Service', order: 'Order',
  settings: 'Setting', feature: 'Feature', announcement: 'Announcement', api_key: 'API key', policy: 'Policies',
  oauth_grant: 'Connected app\'s grant', oauth_client: 'Connected app', agent: 'Agent', staff: 'Staff member',
};

/** What an entry is about, in words: "Product Aviator Classic (aviator-classic)", "Order 0193a5c4 · karen@example.dk". */
export function targetTitle(entry: { targetType: string; targetId: string; before: unknown; after: unknown }): string {
  const row = { ...asRecord(entry.before), ...asRecord(entry.after) };
  const noun = TARGET_NOUNS[entry.targetType] ?? sentence(words(entry.targetType));
  const name = text(row.name) ?? text(row.title);
  const slug = text(row.slug);
  switch (entry.targetType) {
    case 'order': {
      const email = text(row.email);
      return `${noun} ${orderNumber(entry.targetId)}${email ? ` · ${email}` : ''}`;
    }
    case 'discount':
      return `${noun} ${text(row.code) ?? entry.targetId}`;
    // An account or an invitation: both keep the person's e-mail, never a name.
    case 'staff':
      return `${noun} ${text(row.email) ?? entry.targetId}`;
    case 'settings':
    case 'feature': {
      const key = text(row.key) ?? entry.targetId;
      return `${noun} "${FIELD_LABELS[key] ?? sentence(words(key))}"`;
    }
    default:
      if (name && slug) return `${noun} ${name} (${slug})`;
      return `${noun} ${name ?? slug ?? text(row.clientName) ?? entry.targetId}`;
  }
}

/** Labels a person reads for the columns and document members entries carry. */
const FIELD_LABELS: Record<string, string> = {
  priceDkk: 'Price', stock: 'Stock', name: 'Name', title: 'Title', slug: 'Address (slug)', description: 'Description',
  brand: 'Brand', featured: 'Featured', frameColor: 'Frame colour', lensColor: 'Lens colour', categoryId: 'Category',
  images: 'Images', url: 'address', alt: 'alt text', sku: 'SKU', attributes: 'Attributes', answerSummary: 'Answer summary',
  faq: 'Questions and answers', useCases: 'Use cases', comparisonFacts: 'Comparison facts', deletedAt: 'Deleted',
  status: 'Status', trackingNumber: 'Tracking number', trackingUrl: 'Tracking link', paidAt: 'Paid', refundedAt: 'Refunded',
  code: 'Code', type: 'Type', value: 'Value', isActive: 'Active', active: 'Active', usageLimit: 'Usage limit',
  usedCount: 'Times used', minOrderDkk: 'Minimum order', startsAt: 'Starts', endsAt: 'Ends', expiresAt: 'Expires',
  layout: 'Layout', sections: 'Section', heading: 'heading', body: 'text', columns: 'column', items: 'item',
  published: 'Published', enabled: 'On', message: 'Message', shippingDkk: 'Shipping', freeShippingThresholdDkk: 'Free shipping from',
  durationMinutes: 'Duration (minutes)', email: 'E-mail', key: 'Key',
};

/** A field's path ("images.0.alt", "layout.sections.2.heading") as a label ("Image 1 alt text", "Section 3 heading"). */
export function fieldLabel(path: string): string {
  const parts = path.split('.');
  const out: string[] = [];
  for (const [index, part] of parts.entries()) {
    if (/^\d+$/.test(part)) {
      // A list member is counted from 1, after the singular of the list's label: "Images" + 0 → "Image 1".
      const previous = out.pop() ?? '';
      out.push(`${singular(previous)} ${Number(part) + 1}`.trim());
      continue;
    }
    // "value" of a setting is the setting itself; the entry's title already names it.
    if (part === 'value' && index === parts.length - 1 && parts.length === 1) {
      out.push('Value');
      continue;
    }
    if (part === 'layout' && parts[index + 1] === 'sections') continue;
    const label = FIELD_LABELS[part] ?? words(part);
    out.push(out.length === 0 ? sentence(label) : label.toLowerCase() === label ? label : label.toLowerCase());
  }
  return out.join(' ');
}

function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

function singular(label: string): string {
  if (label.endsWith('ies')) return `${label.slice(0, -3)}y`;
  return label.endsWith('s') && !label.endsWith('ss') ? label.slice(0, -1) : label;
}

/** camelCase or snake_case as lower-case words. */
function words(name: string): string {
  return name.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

function sentence(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/**
 * A value as a person reads it: an order status in words, yes/no, and a structured value (a whole section of a
 * page, an image) as "label: value" pairs rather than JSON.
 */
export function valueWords(field: string, value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (field === 'status' && isOrderStatus(value)) return statusWords(value);
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((member) => valueWords(field, member)).join('; ');
  return Object.entries(asRecord(value))
    .filter(([, member]) => member !== null && member !== undefined && member !== '')
    .map(([key, member]) => `${sentence(FIELD_LABELS[key] ?? words(key))}: ${valueWords(key, member)}`)
    .join(', ');
}

/**
 * Why an entry has no Revert, said to a person beside the change: audit.revert's refusals name entry ids and
 * tools for an agent to act on; here the entry is on the screen, so the sentence says what to do instead.
 * A refusal for want of rights already speaks to the person's role (tools/revert-rights.ts) and is kept.
 */
export function whyNoRevert(
  entry: { targetType: string; revertOf: string | null; revertedBy: string | null },
  refusal: { code: string; detail: string },
): string {
  if (refusal.code !== 'not_revertible') return refusal.detail;
  if (entry.targetType === 'order') {
    return 'An order\'s change cannot be undone: stock, discount uses and payments moved with it. Move the order to another status on its page instead.';
  }
  if (entry.revertedBy !== null) return 'This change has already been reverted.';
  if (entry.revertOf !== null) return 'This entry undid an earlier change; to have that change again, make it again.';
  return 'This kind of change cannot be undone from Activity; make the change you want on its own page.';
}
