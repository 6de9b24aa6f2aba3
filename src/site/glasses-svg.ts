import { createHash } from 'node:crypto';

type Shape = 'round' | 'aviator' | 'cat-eye' | 'rectangle' | 'wayfarer';

/** Words in demo slugs that name a frame shape; any other slug gets a shape from its hash. */
const SHAPE_WORDS: ReadonlyArray<[RegExp, Shape]> = [
  [/round|panto|rund/, 'round'],
  [/aviator|pilot|navigator/, 'aviator'],
  [/cat-eye|butterfly/, 'cat-eye'],
  [/wayfarer|clubmaster|browline|oversize/, 'wayfarer'],
  [/rektangul|kvadrat|hexagon/, 'rectangle'],
];
const SHAPES: readonly Shape[] = ['round', 'aviator', 'cat-eye', 'rectangle', 'wayfarer'];

/**
 * The demo seed's product images (`/images/demo/<slug>.svg`): a pair of glasses drawn from the slug alone,
 * so the same slug always gives the same picture, and every demo product has one without shipping files.
 */
export function renderGlassesSvg(slug: string): string {
  const hash = createHash('sha256').update(slug).digest();
  const byte = (index: number) => hash[index] ?? 0;
  const hue = Math.round((byte(0) / 255) * 360);
  const lensHue = (hue + 150 + byte(1)) % 360;
  const shape = SHAPE_WORDS.find(([pattern]) => pattern.test(slug))?.[1] ?? SHAPES[byte(2) % SHAPES.length] ?? 'round';
  const frame = `hsl(${hue} ${45 + (byte(3) % 30)}% ${22 + (byte(4) % 18)}%)`;
  const lens = `hsl(${lensHue} 45% 55% / 0.55)`;
  const backdrop = `hsl(${hue} 35% 95%)`;
  const backdropEdge = `hsl(${hue} 30% 88%)`;
  const lensOutline = lensPath(shape, 120);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="800" height="600" role="img" aria-labelledby="t">
<title id="t">Illustration: ${slug.replaceAll('-', ' ')}</title>
<defs><radialGradient id="bg" cx="50%" cy="45%" r="70%"><stop offset="0" stop-color="${backdrop}"/><stop offset="1" stop-color="${backdropEdge}"/></radialGradient>
<linearGradient id="glint" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.55"/><stop offset="0.45" stop-color="#fff" stop-opacity="0"/></linearGradient></defs>
<rect width="400" height="300" fill="url(#bg)"/>
<ellipse cx="200" cy="232" rx="150" ry="10" fill="${frame}" opacity="0.12"/>
<path d="M 42 128 Q 20 124 8 150" fill="none" stroke="${frame}" stroke-width="7" stroke-linecap="round"/>
<path d="M 358 128 Q 380 124 392 150" fill="none" stroke="${frame}" stroke-width="7" stroke-linecap="round"/>
<path d="M 172 140 Q 200 118 228 140" fill="none" stroke="${frame}" stroke-width="8" stroke-linecap="round"/>
<g id="lens"><path d="${lensOutline}" fill="${lens}" stroke="${frame}" stroke-width="10" stroke-linejoin="round"/>
<path d="${lensOutline}" fill="url(#glint)"/></g>
<use href="#lens" transform="translate(400 0) scale(-1 1)"/>
</svg>
`;
}

/** The left lens (outer edge on the left), centred at x = cx, y = 150, about 116 wide; mirrored for the right. */
function lensPath(shape: Shape, cx: number): string {
  const l = cx - 58;
  const r = cx + 58;
  switch (shape) {
    case 'round':
      return `M ${cx} 95 A 55 55 0 1 1 ${cx - 0.1} 95 Z`;
    case 'aviator':
      return `M ${l} 112 Q ${l} 100 ${l + 14} 100 L ${r - 14} 100 Q ${r} 100 ${r} 116 C ${r} 160 ${cx + 34} 200 ${cx + 4} 200 C ${l + 14} 200 ${l} 166 ${l} 112 Z`;
    case 'cat-eye':
      return `M ${l - 6} 94 Q ${cx} 100 ${r} 106 Q ${r + 2} 160 ${r - 18} 182 Q ${cx} 198 ${l + 20} 182 Q ${l} 150 ${l - 6} 94 Z`;
    case 'wayfarer':
      return `M ${l} 104 L ${r} 104 Q ${r} 172 ${r - 20} 184 L ${l + 16} 184 Q ${l} 172 ${l} 104 Z`;
    case 'rectangle':
      return `M ${l + 10} 110 L ${r - 10} 110 Q ${r} 110 ${r} 120 L ${r} 176 Q ${r} 186 ${r - 10} 186 L ${l + 10} 186 Q ${l} 186 ${l} 176 L ${l} 120 Q ${l} 110 ${l + 10} 110 Z`;
  }
}
