import type { Db, Tx } from '../db/client.ts';
import { pages, services } from '../db/schema.ts';
import type { Layout } from '../schema/layout.ts';

type DemoPage = { slug: string; title: string; body: string; status: 'draft' | 'published'; layout?: Layout };
type DemoService = {
  slug: string; title: string; shortDescription: string; priceString: string; navOrder: number;
  features: string[]; body: string; status: 'draft' | 'published'; showInNav?: boolean;
};

function demoPages(baseUrl: string): DemoPage[] {
  return [
    {
      slug: 'om-os',
      title: 'Om os',
      status: 'published',
      body: 'Vi er en lille dansk brillebutik med optiker i huset.\n\n'
        + '## Vores historie\n\nButikken startede i 2012 i et baglokale i Aarhus. I dag sender vi briller til hele landet.\n\n'
        + '## Kontakt\n\nSkriv til os, hvis du har spørgsmål til stel, glas eller styrke.',
      layout: {
        version: 1,
        sections: [
          {
            type: 'hero',
            heading: 'Briller med omtanke',
            subheading: 'En lille dansk brillebutik med optiker i huset — siden 2012.',
            image: { url: `${baseUrl}/images/demo/skagen-round.svg`, alt: 'Runde briller i havana-farvet stel' },
            cta: { label: 'Se vores ydelser', href: '/services' },
          },
          {
            type: 'text',
            heading: 'Vores historie',
            body: 'Butikken startede i 2012 i et baglokale i Aarhus. I dag sender vi briller til hele landet, '
              + 'men du er stadig velkommen til at kigge forbi og prøve stel.',
          },
          {
            type: 'columns',
            columns: [
              { type: 'text', heading: 'Dansk design', body: 'Vi fører stel fra danske designere som Lindberg, Ørgreen og Kilsgaard.' },
              { type: 'text', heading: 'Optiker i huset', body: 'Vores optikere måler dit syn og tilpasser stellet, så det sidder rigtigt.' },
              { type: 'text', heading: 'Fri retur', body: '30 dages returret på alle stel, der ikke er slebet glas i.' },
            ],
          },
          { type: 'cta', label: 'Læs om levering', href: '/info/levering', style: 'secondary' },
        ],
      },
    },
    {
      slug: 'levering',
      title: 'Levering',
      status: 'published',
      body: 'Vi sender med PostNord og GLS til hele Danmark.\n\n'
        + '## Leveringstid\n\nBestiller du inden kl. 14 på en hverdag, sender vi samme dag. Briller med slebne glas tager 5-7 hverdage.\n\n'
        + '## Pris\n\nLevering koster 49 kr. Ved køb over 500 kr. er leveringen gratis.',
    },
    {
      slug: 'returret',
      title: 'Returret',
      status: 'published',
      body: 'Du har 30 dages returret fra den dag, du modtager din pakke.\n\n'
        + '## Sådan returnerer du\n\n- Pak varen forsvarligt ind\n- Læg kvitteringen i pakken\n- Send den til vores adresse i Aarhus\n\n'
        + 'Briller med glas slebet efter din styrke kan ikke returneres, men vi retter gerne fejl.',
    },
    {
      slug: 'privatliv',
      title: 'Privatlivspolitik',
      status: 'published',
      body: 'Vi behandler kun de oplysninger, vi skal bruge for at sende din ordre.\n\n'
        + '## Hvad vi gemmer\n\nNavn, adresse, e-mail og ordrehistorik. Synsprøver gemmes i din journal hos optikeren.\n\n'
        + '## Dine rettigheder\n\nDu kan altid få indsigt i, rette eller slette dine oplysninger ved at skrive til os.',
    },
    {
      slug: 'job',
      title: 'Job hos os',
      status: 'draft',
      body: 'Vi søger en optikerelev til butikken i Aarhus. Opslaget er ikke offentliggjort endnu.',
    },
  ];
}

const DEMO_SERVICES: DemoService[] = [
  {
    slug: 'synsproeve',
    title: 'Synsprøve',
    shortDescription: 'Grundig synsprøve hos en autoriseret optiker, også til bilkørsel.',
    priceString: 'Gratis ved køb af briller',
    navOrder: 10,
    showInNav: true,
    features: ['Tager ca. 30 minutter', 'Måling af både afstand og nærsyn', 'Attest til kørekort'],
    body: 'En synsprøve hos os tager cirka en halv time.\n\n## Sådan foregår det\n\n'
      + 'Optikeren måler dit syn på afstand og nært og tjekker øjets tryk. Bagefter får du en anbefaling.',
    status: 'published',
  },
  {
    slug: 'brillerens',
    title: 'Brillerens',
    shortDescription: 'Ultralydsrens af stel og glas, mens du venter.',
    priceString: '50 kr.',
    navOrder: 20,
    features: ['Ultralydsbad', 'Nye næsepuder', 'Stramning af skruer'],
    body: 'Kom forbi butikken, så renser vi dine briller i ultralydsbad på ti minutter.\n\n'
      + 'Vi skifter næsepuder og strammer skruerne, hvis det trænger.',
    status: 'published',
  },
  {
    slug: 'stelreparation',
    title: 'Stelreparation',
    shortDescription: 'Knækket stang eller løst hængsel? Vi reparerer de fleste stel.',
    priceString: 'Fra 150 kr.',
    navOrder: 30,
    features: ['Udskiftning af hængsler', 'Lodning af metalstel', 'Nye stænger'],
    body: 'Vi reparerer de fleste metal- og acetatstel i vores eget værksted.\n\n## Pris\n\n'
      + 'Prisen afhænger af skaden. Du får altid et tilbud, før vi går i gang.',
    status: 'published',
  },
  {
    slug: 'hjemmebesoeg',
    title: 'Hjemmebesøg',
    shortDescription: 'Optikeren kommer hjem til dig med stel og udstyr.',
    priceString: '495 kr.',
    navOrder: 15,
    features: ['Synsprøve i eget hjem', 'Udvalg af stel med'],
    body: 'Hjemmebesøg er under planlægning og er endnu ikke offentliggjort.',
    status: 'draft',
  },
];

/**
 * The demo store's CMS pages and service offerings (one draft of each), added with the catalog on first
 * start. Existing slugs are left alone, so running it twice changes nothing.
 */
export async function seedDemoContent(db: Db | Tx, options: { baseUrl: string }): Promise<void> {
  await db.insert(pages).values(demoPages(options.baseUrl).map((page) => ({ ...page, layout: page.layout ?? null })))
    .onConflictDoNothing({ target: pages.slug });
  await db.insert(services).values(DEMO_SERVICES.map((service) => ({
    ...service,
    showInNav: service.showInNav ?? false,
    heroImage: `${options.baseUrl}/images/demo/${service.slug}.svg`,
  }))).onConflictDoNothing({ target: services.slug });
}
