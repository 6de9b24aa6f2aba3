import { readStoredLayout } from '../schema/layout.ts';
import type { PageRow, ServiceRow } from '../shop/content.ts';
import { html, link, safeSrc } from '../edge/html/template.ts';
import type { Html } from '../edge/html/template.ts';
import type { PageView } from './document.ts';
import { headingTag, renderBodyText } from './markup.ts';
import { renderLayout } from './sections.ts';

/** /info/<slug> renders the layout when the page has one, else its body. */
export function pageView(page: PageRow): PageView {
  const layout = readStoredLayout(page.layout);
  const content = layout ? renderLayout(layout, page.title) : html`${headingTag(1, page.title)}${renderBodyText(page.body)}`;
  return {
    title: page.title,
    path: `/info/${page.slug}`,
    main: html`<article class="page${layout ? ' page-layout' : ''}">${content}</article>`,
  };
}

/** Published offerings only, in the order given (navOrder ascending). */
export function servicesView(offerings: readonly ServiceRow[], storeName: string): PageView {
  const list = offerings.length === 0
    ? html`<p>Der er ingen ydelser at vise lige nu.</p>`
    : html`<ul class="service-list">${offerings.map(serviceCard)}</ul>`;
  return {
    title: 'Ydelser',
    description: `Ydelser hos ${storeName}.`,
    path: '/services',
    main: html`<h1>Ydelser</h1>\n<p class="lead">Det kan vi hjælpe dig med hos ${storeName}.</p>\n${list}`,
  };
}

function serviceCard(offering: ServiceRow): Html {
  return html`<li class="service-card"><article>
<h2>${link(`/services/${offering.slug}`, offering.title)}</h2>
${offering.shortDescription ? html`<p>${offering.shortDescription}</p>` : ''}
${offering.priceString ? html`<p class="price">${offering.priceString}</p>` : ''}
</article></li>`;
}

export function serviceView(offering: ServiceRow): PageView {
  const image = safeSrc(offering.heroImage);
  return {
    title: offering.title,
    description: offering.shortDescription,
    path: `/services/${offering.slug}`,
    main: html`<nav class="breadcrumb" aria-label="Brødkrumme">${link('/services', 'Ydelser')}</nav>
<article class="service">
<h1>${offering.title}</h1>
${offering.shortDescription ? html`<p class="lead">${offering.shortDescription}</p>` : ''}
${offering.priceString ? html`<p class="price">${offering.priceString}</p>` : ''}
${image ? html`<img class="hero-image" src="${image}" alt="${offering.title}">` : ''}
${offering.features.length > 0
    ? html`<section class="features"><h2>Det får du</h2><ul>${offering.features.map((feature) => html`<li>${feature}</li>`)}</ul></section>`
    : ''}
<div class="service-body">${renderBodyText(offering.body)}</div>
</article>`,
  };
}

/** The styled 404 page; `path` is the requested path (escaped like everything else) for the visitor's orientation. */
export function notFoundView(path: string, options: { servicesListed: boolean }): PageView {
  return {
    title: 'Siden findes ikke',
    main: html`<h1>Siden findes ikke</h1>
<p>Vi kunne ikke finde <code>${path}</code>. Den kan være flyttet, fjernet eller endnu ikke offentliggjort.</p>
${options.servicesListed ? html`<p>${link('/services', 'Se alle vores ydelser', { class: 'button button-secondary' })}</p>` : ''}`,
  };
}
