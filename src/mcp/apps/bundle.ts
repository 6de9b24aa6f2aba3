import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A view's script is bundled from its TypeScript source the first time a host reads the resource, and kept: a shop
 * whose hosts never read one never loads esbuild, and `npm run build` stays as it is. The source is found as
 * drizzle/ is (db/migrations-folder.ts): src/mcp/apps/ of the checkout this code runs from, here or above dist/.
 */
function findViewsFolder(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const folder of [dir, join(dir, 'src', 'mcp', 'apps')]) {
      if (existsSync(join(folder, 'view-kit.ts'))) return folder;
    }
    if (dirname(dir) === dir) throw new Error(`no src/mcp/apps/ view sources above ${from}`);
  }
}

const bundles = new Map<string, Promise<string>>();

async function bundleView(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(findViewsFolder(dirname(fileURLToPath(import.meta.url))), entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    // The script sits inside <script>: esbuild writes a "</script" in a string as "<\/script".
    supported: { 'inline-script': false },
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error(`esbuild wrote nothing for ${entry}`);
  return file.text;
}

/** The bundled script of a view source in src/mcp/apps/ (e.g. "cart.view.ts"), built once per process. */
export function viewScript(entry: string): Promise<string> {
  let script = bundles.get(entry);
  if (!script) {
    script = bundleView(entry);
    // A failed build is not kept: the next read tries again.
    script.catch(() => bundles.delete(entry));
    bundles.set(entry, script);
  }
  return script;
}
