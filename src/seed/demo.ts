import { count } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { categories, products } from '../db/schema.ts';
import { slugify } from '../domain/slugify.ts';
import { seedDemoCommerce } from './commerce.ts';
import { seedDemoContent } from './content.ts';
import { EYEWEAR_VOCABULARY } from './search-vocabulary.ts';
import { writeSetting } from '../shop/settings.ts';

const CATEGORIES = [
  { slug: 'solbriller', name: 'Solbriller', description: 'Solbriller med UV400-beskyttelse til by, strand og bil.' },
  { slug: 'briller', name: 'Briller', description: 'Brillestel til enkeltstyrke og progressive glas.' },
  { slug: 'sportsbriller', name: 'Sportsbriller', description: 'Lette, tætsiddende briller til løb, cykling og ski.' },
  { slug: 'laesebriller', name: 'Læsebriller', description: 'Færdige læsebriller i styrke +1,0 til +3,0.' },
  { slug: 'tilbehoer', name: 'Tilbehør', description: 'Etuier, klude og snore.' },
];

type DemoProduct = {
  name: string; brand: string; category: string; price: number; stock: number;
  frame: string; lens?: string; featured?: boolean; about: string;
};

const PRODUCTS: DemoProduct[] = [
  { name: 'Aviator Classic', brand: 'Ray-Ban', category: 'solbriller', price: 129900, stock: 14, frame: 'guld', lens: 'grøn', featured: true, about: 'Den klassiske pilotbrille i tyndt metal med krystalglas.' },
  { name: 'Wayfarer Sort', brand: 'Ray-Ban', category: 'solbriller', price: 119900, stock: 22, frame: 'sort', lens: 'grå', featured: true, about: 'Ikonisk acetatstel, der passer til de fleste ansigtsformer.' },
  { name: 'Clubmaster Havana', brand: 'Ray-Ban', category: 'solbriller', price: 134900, stock: 6, frame: 'havana', lens: 'brun', about: 'Browline-stel med metalbund og varm havana-farve.' },
  { name: 'Holbrook Polariseret', brand: 'Oakley', category: 'solbriller', price: 149900, stock: 9, frame: 'mat sort', lens: 'polariseret grå', featured: true, about: 'Polariserede glas fjerner blænding fra vand og vej.' },
  { name: 'Skagen Round', brand: 'Kilsgaard', category: 'solbriller', price: 99900, stock: 11, frame: 'havana', lens: 'brun', about: 'Rundt dansk design i bio-acetat, lavet til lange sommerdage.' },
  { name: 'Nordlys Cat-Eye', brand: 'Ørgreen', category: 'solbriller', price: 219900, stock: 3, frame: 'rosa', lens: 'grå', about: 'Let cat-eye i titanium med håndpolerede kanter.' },
  { name: 'Fjord Pilot', brand: 'Lindberg', category: 'solbriller', price: 389900, stock: 2, frame: 'sølv', lens: 'blå spejl', about: 'Skruefrit titaniumstel fra Aarhus, vejer under 10 gram.' },
  { name: 'Havbris Oversize', brand: 'Han Kjøbenhavn', category: 'solbriller', price: 139900, stock: 0, frame: 'sort', lens: 'grå', about: 'Kraftigt oversize-stel med fladt glas og markante hængsler.' },
  { name: 'Storm Shield', brand: 'Oakley', category: 'sportsbriller', price: 179900, stock: 8, frame: 'hvid', lens: 'guld spejl', about: 'Shield-glas med bredt synsfelt til cykling og løb.' },
  { name: 'Tidal Sport Wrap', brand: 'Julbo', category: 'sportsbriller', price: 109900, stock: 12, frame: 'blå', lens: 'fotokromisk', about: 'Fotokromiske glas, der tilpasser sig skiftende lys.' },
  { name: 'Frost Goggle', brand: 'Smith', category: 'sportsbriller', price: 159900, stock: 5, frame: 'sort', lens: 'orange', about: 'Skibrille med dobbeltglas mod dug og god kontrast i fladt lys.' },
  { name: 'Drift Runner', brand: 'POC', category: 'sportsbriller', price: 129900, stock: 7, frame: 'grøn', lens: 'violet', about: 'Let løbebrille med gummierede næsepuder, der sidder fast.' },
  { name: 'Amager Panto', brand: 'Monokel', category: 'briller', price: 149900, stock: 10, frame: 'transparent', about: 'Panto-stel i genanvendt acetat til hverdagsbrug.' },
  { name: 'Lyngby Rektangulær', brand: 'Prodesign Denmark', category: 'briller', price: 169900, stock: 4, frame: 'gunmetal', about: 'Smalt rektangulært metalstel til kontoret.' },
  { name: 'Kyst Browline', brand: 'Scandinavian Eyewear', category: 'briller', price: 89900, stock: 15, frame: 'bordeaux', about: 'Browline i bordeaux med fleksible hængsler.' },
  { name: 'Marina Round Titanium', brand: 'Lindberg', category: 'briller', price: 429900, stock: 1, frame: 'guld', featured: true, about: 'Rundt titaniumstel, skræddersyet til smalle ansigter.' },
  { name: 'Ravn Hexagonal', brand: 'Ørgreen', category: 'briller', price: 259900, stock: 3, frame: 'sort', about: 'Sekskantet stel med fine detaljer i emalje.' },
  { name: 'Eclipse Kvadratisk', brand: 'Tom Ford', category: 'briller', price: 299900, stock: 6, frame: 'havana', about: 'Kvadratisk acetatstel med metalindlæg ved hængslet.' },
  { name: 'Sommer Læsebrille +1,5', brand: 'Le Specs', category: 'laesebriller', price: 29900, stock: 40, frame: 'rød', lens: 'klar', about: 'Let læsebrille i styrke +1,5 med antirefleks.' },
  { name: 'Kontor Læsebrille +2,0', brand: 'Komono', category: 'laesebriller', price: 34900, stock: 30, frame: 'sort', lens: 'klar', about: 'Læsebrille i styrke +2,0 med blåt lys-filter til skærmarbejde.' },
  { name: 'Falk Læsebrille +2,5', brand: 'Komono', category: 'laesebriller', price: 34900, stock: 0, frame: 'havana', lens: 'klar', about: 'Foldbar læsebrille i +2,5, der passer i lommen.' },
  { name: 'Glow Læsebrille +1,0', brand: 'Le Specs', category: 'laesebriller', price: 24900, stock: 25, frame: 'grøn', lens: 'klar', about: 'Farverig læsebrille i styrke +1,0 til avisen.' },
  { name: 'Brilleetui i læder', brand: 'Kilsgaard', category: 'tilbehoer', price: 19900, stock: 50, frame: 'brun', about: 'Hårdt etui beklædt med vegetabilsk garvet læder.' },
  { name: 'Mikrofiberklud 3-pak', brand: 'Komono', category: 'tilbehoer', price: 7900, stock: 120, frame: 'grå', about: 'Tre mikrofiberklude, der fjerner fedt uden at ridse.' },
  { name: 'Brillesnor i bomuld', brand: 'Quay', category: 'tilbehoer', price: 9900, stock: 60, frame: 'blå', about: 'Justerbar brillesnor i økologisk bomuld.' },
  { name: 'Midnight Navigator', brand: 'Persol', category: 'solbriller', price: 189900, stock: 5, frame: 'sort', lens: 'polariseret brun', about: 'Navigator-form med den ikoniske pilpil-hængsel.' },
  { name: 'Solstice Butterfly', brand: 'Prada', category: 'solbriller', price: 249900, stock: 4, frame: 'hvid', lens: 'rosa', about: 'Butterfly-stel med gradientglas og logo på stangen.' },
  { name: 'Coast Wayfarer Blå', brand: 'Polaroid', category: 'solbriller', price: 69900, stock: 18, frame: 'blå', lens: 'polariseret grå', about: 'Prisvenlig wayfarer med polariserede glas.' },
  { name: 'Nova Pilot Sølv', brand: 'Carrera', category: 'solbriller', price: 109900, stock: 9, frame: 'sølv', lens: 'sølv spejl', about: 'Pilot med spejlglas og dobbelt bro.' },
  { name: 'Bølge Kids', brand: 'Julbo', category: 'solbriller', price: 39900, stock: 20, frame: 'rosa', lens: 'grå', about: 'Bøjelig børnesolbrille, der tåler at blive tabt.' },
];

/**
 * Fills an empty store with a small demo shop (BUTIK_SEED=demo, docs/behaviour.md#running-it). Does nothing when the
 * catalog already has categories, so restarts and other instances leave it alone.
 */
export async function seedDemoStore(db: Db, options: { baseUrl: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(categories);
    if (existing && existing.n > 0) return false;
    const inserted = await tx.insert(categories).values(CATEGORIES).onConflictDoNothing().returning();
    if (inserted.length === 0) return false;
    const categoryIds = new Map(inserted.map((row) => [row.slug, row.id]));
    const start = Date.UTC(2026, 0, 1);
    const stored = await tx.insert(products).values(PRODUCTS.map((product, index) => {
      const slug = slugify(product.name);
      return {
        slug,
        name: product.name,
        brand: product.brand,
        description: `${product.about} ${product.brand} ${product.name} leveres med etui og klud.`,
        priceDkk: product.price,
        stock: product.stock,
        featured: product.featured ?? false,
        frameColor: product.frame,
        lensColor: product.lens ?? null,
        categoryId: categoryIds.get(product.category) ?? '',
        images: [{ url: `${options.baseUrl}/images/demo/${slug}.svg`, alt: `${product.name} fra ${product.brand}` }],
        createdAt: new Date(start + index * 86_400_000),
        updatedAt: new Date(start + index * 86_400_000),
      };
    })).returning({ id: products.id, slug: products.slug, name: products.name, priceDkk: products.priceDkk });
    const bySlug = new Map(stored.map((row) => [row.slug, row]));
    const aviator = bySlug.get('aviator-classic');
    const cloth = bySlug.get('mikrofiberklud-3-pak');
    if (!aviator || !cloth) throw new Error('the demo order names products the demo catalog lacks');
    await seedDemoCommerce(tx, [aviator, cloth], new Date(start + PRODUCTS.length * 86_400_000));
    await seedDemoContent(tx, options);
    await writeSetting(tx, { key: 'searchVocabulary', value: EYEWEAR_VOCABULARY, now: new Date(start) });
    return true;
  });
}
