import type { Db } from '../db/client.ts';
import { findActiveAnnouncement } from '../shop/announcements.ts';
import { listPublishedPages } from '../shop/content.ts';
import { isFeatureEnabled } from '../shop/features.ts';
import { readSettings } from '../shop/settings.ts';
import type { Chrome } from './document.ts';

/** The store name, banner, page links and services flag that frame every public page. */
export async function loadChrome(db: Db, now: Date): Promise<Chrome> {
  const [settings, announcement, pages, servicesListed] = await Promise.all([
    readSettings(db),
    findActiveAnnouncement(db, now),
    listPublishedPages(db),
    isFeatureEnabled(db, 'services_listing'),
  ]);
  return {
    storeName: settings.storeName,
    tagline: settings.tagline,
    contactEmail: settings.contactEmail,
    companyAddress: settings.companyAddress,
    cvrNumber: settings.cvrNumber,
    announcement,
    pages: pages.map((page) => ({ slug: page.slug, title: page.title })),
    servicesListed,
    currency: settings.currency,
  };
}
