import fastifyMultipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { IMPORT_FILE_NAMES, IMPORT_MAX_BYTES } from '../../commands/import.ts';
import { html } from '../../edge/html/template.ts';
import type { Html } from '../../edge/html/template.ts';
import type { AppDeps } from '../../deps.ts';
import { runOwnerCommand } from '../call.ts';
import { csrfField, problemBox, sendAdminPage } from '../document.ts';
import { field } from '../fields.ts';
import { importSeal } from '../import-seal.ts';
import { ownersOnly } from '../signed-in.ts';
import type { SignedIn } from '../signed-in.ts';
import { t } from '../strings.ts';

const KNOWN = IMPORT_FILE_NAMES;
/** A file to import, as uploaded or as carried from the dry run to the apply form: its bytes exactly. */
type Upload = { name: string; bytes: Buffer };
type Options = { currency?: string; category?: string };
type Tally = { created: number; updated: number; unchanged: number };
type Report = { dryRun: boolean; skipped: string[]; problems: Array<{ file: string; line: number; message: string }>; counts: Record<string, Tally> | null };
/**
 * A multipart part as @fastify/multipart attaches it to the body: a field's value, or a file's buffer and name.
 * A field longer than the field limit arrives cut, with valueTruncated set, and no error of its own.
 */
type Part = { type: 'field'; value: unknown; valueTruncated?: boolean } | { type: 'file'; filename: string; toBuffer(): Promise<Buffer> };

const CARRIED = 'carried:';
/**
 * Carried files travel base64-encoded: a browser sends a hidden field's value back with its line breaks changed
 * to CRLF (and a page cannot hold a lone CR at all), so plain text would not come back byte for byte.
 */
const CARRIED_MAX_CHARS = 4 * Math.ceil(IMPORT_MAX_BYTES / 3);

function parts(value: unknown): Part[] {
  return [value ?? []].flat().filter((part): part is Part => typeof part === 'object' && part !== null && 'type' in part);
}

function fieldValue(body: Record<string, unknown>, name: string): string | undefined {
  const [part] = parts(body[name]);
  return part?.type === 'field' && typeof part.value === 'string' && part.value.trim() !== '' ? part.value.trim() : undefined;
}

/** Whether any field arrived cut at the field limit: read as it is, it would be other data than was sent. */
function anyCut(body: Record<string, unknown>): boolean {
  return Object.values(body).some((value) => parts(value).some((part) => part.type === 'field' && part.valueTruncated === true));
}

/** The files uploaded for a check. */
async function uploads(body: Record<string, unknown>): Promise<Upload[]> {
  const files = await Promise.all(parts(body.files).map(async (part) => (part.type === 'file' && part.filename
    ? { name: part.filename, bytes: await part.toBuffer() } : undefined)));
  return files.filter((file): file is Upload => file !== undefined);
}

/** The files a dry run's Apply form carried back. */
function carried(body: Record<string, unknown>): Upload[] {
  return Object.keys(body).filter((key) => key.startsWith(CARRIED)).flatMap((key) => {
    const [part] = parts(body[key]);
    return part?.type === 'field' && typeof part.value === 'string' ? [{ name: key.slice(CARRIED.length), bytes: Buffer.from(part.value, 'base64') }] : [];
  });
}

function countsTable(counts: Record<string, Tally>): Html {
  const rows = Object.entries(counts);
  if (rows.length === 0) return html`<p>${t.importPage.nothing}</p>`;
  return html`<table class="stack"><thead><tr><th scope="col">${t.importPage.kind}</th><th scope="col" class="num">${t.importPage.created}</th><th scope="col" class="num">${t.importPage.updated}</th><th scope="col" class="num">${t.importPage.unchanged}</th></tr></thead><tbody>
${rows.map(([kind, tally]) => html`<tr><td data-label="${t.importPage.kind}">${kind}</td><td data-label="${t.importPage.created}" class="num">${tally.created}</td><td data-label="${t.importPage.updated}" class="num">${tally.updated}</td><td data-label="${t.importPage.unchanged}" class="num">${tally.unchanged}</td></tr>`)}
</tbody></table>`;
}

function reportView(report: Report): Html {
  const skipped = report.skipped.map((name) => html`<li>${t.importPage.skipped(name)}</li>`);
  if (report.counts === null) {
    return html`<section class="problem" role="alert"><h2>${t.importPage.problems}</h2><ul>${report.problems.map((p) => html`<li><code>${p.file}:${p.line}</code> ${p.message}</li>`)}${skipped}</ul></section>`;
  }
  return html`<section class="${report.dryRun ? 'panel' : 'notice'}" role="status"><h2>${report.dryRun ? t.importPage.report : t.importPage.applied}</h2>
${countsTable(report.counts)}${skipped.length > 0 ? html`<ul>${skipped}</ul>` : ''}
${report.dryRun ? '' : html`<p><a href="/admin/activity?tool=import">${t.importPage.audited}</a></p>`}</section>`;
}

function uploadForm(who: SignedIn, options: Options): Html {
  return html`<form method="post" action="/admin/import" enctype="multipart/form-data" class="panel">${csrfField(who.viewer)}
<div class="field"><label for="field-files">${t.importPage.files}</label><input id="field-files" name="files" type="file" accept=".csv,text/csv" multiple required aria-describedby="files-hint"><p class="hint" id="files-hint">${t.importPage.filesHint(KNOWN.join(', '))}</p></div>
${field({ name: 'currency', label: t.importPage.currency, value: options.currency })}
${field({ name: 'category', label: t.importPage.category, value: options.category })}
<input type="hidden" name="mode" value="check"><button type="submit">${t.importPage.dryRun}</button></form>`;
}

/** What a clean dry run checked, carried in hidden fields with the seal that lets Apply write exactly those files. */
function applyForm(who: SignedIn, files: Upload[], options: Options, seal: string): Html {
  return html`<form method="post" action="/admin/import" enctype="multipart/form-data" class="panel">${csrfField(who.viewer)}
<p>${t.importPage.applyLead}</p>
${files.map((file) => html`<input type="hidden" name="${CARRIED}${file.name}" value="${file.bytes.toString('base64')}">`)}
<input type="hidden" name="checked" value="${seal}">
${options.currency ? html`<input type="hidden" name="currency" value="${options.currency}">` : ''}${options.category ? html`<input type="hidden" name="category" value="${options.category}">` : ''}
<input type="hidden" name="mode" value="apply"><button type="submit">${t.importPage.apply}</button></form>`;
}

/**
 * The CSV import of `butik import`, for an owner: upload, a dry run that reports what would change, then
 * apply. It runs the `import` owner command (the CLI's reading, checks and transaction) as the signed-in
 * owner, so the rows the import audits name them on the admin channel. Uploads are parsed only for a
 * signed-in owner, are capped in size, and carry the form's CSRF token like every other form. Apply writes only
 * what a dry run checked, byte for byte (import-seal.ts), and a part cut at a size limit is refused, never read.
 */
export async function importPages(app: FastifyInstance, deps: AppDeps, masterKey: string): Promise<void> {
  const sealer = importSeal(masterKey);
  await app.register(fastifyMultipart, {
    attachFieldsToBody: true,
    limits: { fileSize: IMPORT_MAX_BYTES, fieldSize: CARRIED_MAX_CHARS, files: KNOWN.length, fields: KNOWN.length + 8, parts: 2 * KNOWN.length + 8 },
  });

  // Before any body is read: nobody but a signed-in owner gets an upload parsed at all.
  app.addHook('onRequest', ownersOnly(t.importPage.title, t.forbidden));

  const page = (reply: FastifyReply, who: SignedIn, top: Html, status = 200) => sendAdminPage(reply, {
    title: t.importPage.title, current: 'import', viewer: who.viewer,
    main: html`<h1>${t.importPage.title}</h1><p>${t.importPage.lead}</p>${top}`,
  }, status);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode !== 413) throw error;
    request.log.warn({ code: error.code }, 'admin import refused: too large');
    return sendAdminPage(reply, { title: t.importPage.title, main: problemBox(t.importPage.tooLarge, t.importPage.tooLargeResolution) }, 413);
  });

  app.get('/admin/import', async (request, reply) => page(reply, request.staff, uploadForm(request.staff, {})));

  app.post<{ Body: Record<string, unknown> }>('/admin/import', async (request, reply) => {
    const who = request.staff;
    const body = request.body ?? {};
    const options: Options = { currency: fieldValue(body, 'currency')?.toUpperCase(), category: fieldValue(body, 'category') };
    if (anyCut(body)) {
      request.log.warn({ by: who.actor.staffId }, 'admin import refused: a part was cut at the size limit');
      return page(reply, who, html`${problemBox(t.importPage.cut, t.importPage.tooLargeResolution)}${uploadForm(who, options)}`, 413);
    }
    const dryRun = fieldValue(body, 'mode') !== 'apply';
    const files = dryRun ? await uploads(body) : carried(body);
    if (files.length === 0 && dryRun) return page(reply, who, html`${problemBox(t.importPage.noFiles)}${uploadForm(who, options)}`, 422);
    const check = { staffId: who.actor.staffId, files, ...options };
    // An apply takes no upload of its own: only what came back with the seal of its dry run.
    const uploadedToo = parts(body.files).some((part) => part.type === 'file');
    if (!dryRun && (uploadedToo || files.length === 0 || !sealer.holds(check, fieldValue(body, 'checked')))) {
      request.log.warn({ by: who.actor.staffId }, 'admin import refused: apply without the files its dry run checked');
      return page(reply, who, html`${problemBox(t.importPage.unchecked, t.importPage.uncheckedResolution)}${uploadForm(who, options)}`, 422);
    }
    const outcome = await runOwnerCommand(deps, request, who.actor, 'import', {
      files: files.map((file) => ({ name: file.name, text: file.bytes.toString('utf8') })),
      dryRun, ...(options.currency ? { currency: options.currency } : {}), ...(options.category ? { category: options.category } : {}),
    });
    if (!outcome.ok) return page(reply, who, html`${problemBox(outcome.problem.detail, outcome.problem.resolution)}${uploadForm(who, options)}`, outcome.problem.status);
    const report = outcome.result as Report;
    request.log.info({ by: who.actor.staffId, dryRun, files: files.map((file) => file.name) }, 'admin import');
    const clean = report.counts !== null;
    return page(reply, who, html`${reportView(report)}${clean && dryRun ? applyForm(who, files, options, sealer.seal(check)) : ''}${uploadForm(who, options)}`, clean ? 200 : 422);
  });
}
