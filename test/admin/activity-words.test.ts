import { describe, expect, it } from 'vitest';
import { fieldLabel, targetTitle, valueWords } from '../../src/admin/activity-words.ts';

describe('Activity in an owner\'s words', () => {
  it('labels fields and the members of lists and page layouts, counted from 1', () => {
    expect(fieldLabel('priceDkk')).toBe('Price');
    expect(fieldLabel('images.0.alt')).toBe('Image 1 alt text');
    expect(fieldLabel('images.2.url')).toBe('Image 3 address');
    expect(fieldLabel('layout.sections.2.heading')).toBe('Section 3 heading');
    expect(fieldLabel('layout.sections.0.columns.1.body')).toBe('Section 1 column 2 text');
    expect(fieldLabel('freeShippingThresholdDkk')).toBe('Free shipping from');
    expect(fieldLabel('someNewColumn')).toBe('Some new column');
  });

  it('names a target by its name and slug, an order by its number and customer, a setting by its key in words', () => {
    const id = '0193a5c4-7d1e-7c3a-9f2b-3e4d5c6b7a81';
    expect(targetTitle({ targetType: 'product', targetId: id, before: null, after: { name: 'Aviator', slug: 'aviator' } })).toBe('Product Aviator (aviator)');
    // A removal names the row by what it was.
    expect(targetTitle({ targetType: 'page', targetId: id, before: { title: 'Om os', slug: 'om-os' }, after: null })).toBe('Page Om os (om-os)');
    expect(targetTitle({ targetType: 'order', targetId: id, before: { email: 'karen@example.dk' }, after: null })).toBe('Order 0193a5c4 · karen@example.dk');
    expect(targetTitle({ targetType: 'discount', targetId: id, before: null, after: { code: 'SOMMER10' } })).toBe('Discount code SOMMER10');
    expect(targetTitle({ targetType: 'staff', targetId: id, before: { email: 'mia@example.dk', role: 'viewer' }, after: null })).toBe('Staff member mia@example.dk');
    expect(targetTitle({ targetType: 'settings', targetId: 'shippingDkk', before: { key: 'shippingDkk' }, after: null })).toBe('Setting "Shipping"');
  });

  it('reads values as words: statuses, yes and no, and a whole section as label and value pairs rather than JSON', () => {
    expect(valueWords('status', 'partial_refund')).toBe('Partly refunded');
    expect(valueWords('featured', true)).toBe('yes');
    expect(valueWords('sections', { type: 'hero', heading: 'Nye stel', body: '' })).toBe('Type: hero, Heading: Nye stel');
    expect(valueWords('images', [])).toBe('(none)');
  });
});
